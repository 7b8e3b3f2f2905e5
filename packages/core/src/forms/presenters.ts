import { shownDataProperties } from '../steps/data-secrets';
import { FORM_DEFAULTS, FORM_OPTION_FIELDS, THEME_FIELDS, type FormOptionField, type ThemeField } from '../domain/form-fields';
import type { z } from 'zod';
import type { FormRecord, Question, Team, Version } from '../domain/types';
import type { formListItemOut, versionOut } from './output-schemas';

/** Form option fields that are not part of the Form resource (theme-only). */
const THEME_ONLY = new Set<string>(['show_question_nav']);
export const FORM_BODY_OPTION_FIELDS = FORM_OPTION_FIELDS.filter((f) => !THEME_ONLY.has(f));

/**
 * A form's value for an option field: first-class columns first, then `options`; a field the form has no
 * value for (one added after the form was made) reads as its default, else null.
 */
export function optionValue(form: FormRecord, field: string): unknown {
  if (field === 'theme_color') return form.theme_color;
  if (field === 'background_color') return form.background_color;
  return form.options[field] ?? FORM_DEFAULTS[field as FormOptionField] ?? null;
}

export function presentQuestion(q: Question) {
  return {
    id: q.id,
    type: q.type,
    title: q.title,
    description: q.description,
    required: q.required,
    order: q.order,
    properties: q.type === 'data' ? shownDataProperties(q.properties) : q.properties,
    logic_jumps: q.logic_jumps,
    validations: q.validations,
  };
}

/** The full form of Get Form: every writable field (unset ones null) plus the read-only ones. */
export function presentForm(form: FormRecord, questions: Question[]) {
  const body: Record<string, unknown> = {
    id: form.id,
    title: form.title,
    description: form.description,
    team_id: form.team_id,
    published: form.published,
  };
  for (const f of FORM_BODY_OPTION_FIELDS) body[f] = optionValue(form, f);
  Object.assign(body, {
    slug: form.slug,
    created_at: form.created_at,
    updated_at: form.updated_at,
    has_unpublished_changes: form.has_unpublished_changes,
    published_version_id: form.published_version_id,
    response_count: form.response_count,
    questions: questions.map(presentQuestion),
  });
  // Sixty-odd keys added one by one leave `body` a dictionary-mode object; a copy made by spreading has a
  // fixed shape, so that the copy per read (FormService.get) and JSON.stringify take their fast paths
  // (docs/benchmarks.md, "The cached read").
  return { ...body };
}

/** A list item: exactly the fields of `GET /forms` in the OpenAPI document. */
export function presentFormListItem(form: FormRecord, team: Pick<Team, 'id' | 'name'> | null): z.infer<typeof formListItemOut> {
  return {
    id: form.id,
    title: form.title,
    description: form.description,
    slug: form.slug,
    published: form.published,
    created_at: form.created_at,
    updated_at: form.updated_at,
    theme_color: form.theme_color,
    background_color: form.background_color,
    response_count: form.response_count,
    team: team ? { id: team.id, name: team.name } : null,
  };
}

export function presentTheme(form: FormRecord): Record<ThemeField, unknown> {
  const theme = {} as Record<ThemeField, unknown>;
  for (const f of THEME_FIELDS) theme[f] = optionValue(form, f);
  return theme;
}

export function presentVersion(v: Version): z.infer<typeof versionOut> {
  return {
    id: v.id,
    form_id: v.form_id,
    version: v.version,
    published_by: v.published_by,
    published_by_name: v.published_by_name,
    created_at: v.created_at,
    changelog: v.changelog,
    snapshot: v.snapshot,
  };
}
