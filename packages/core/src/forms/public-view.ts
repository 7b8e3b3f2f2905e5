import { THEME_FIELDS } from '../domain/form-fields';
import type { Question } from '../domain/types';
import { recalledVariables } from '../logic/recall-texts';
import { componentTranslations, extraLanguages, publicTranslations } from '../translations/translatable-texts';

/**
 * What a respondent's page is given of a published form (docs/decisions.md "Public read",
 * docs/security.md "What public endpoints reveal"). Built by allow-list: a field reaches the public view
 * only when it is named here, so a field added to forms later stays private until someone decides
 * otherwise. Quiz answers, points, choice scores and endings' score ranges stay on the server, which
 * scores a response at submission.
 */

/** Form fields of the snapshot a respondent's page needs, besides the theme fields. */
export const PUBLIC_FORM_FIELDS = [
  'id',
  'slug',
  'title',
  'description',
  'mode',
  'auto_translate',
  'limit_one_response',
  'incremental_submission',
  'start_logic_jumps',
  'hidden_fields',
  'redirect_url',
  'redirect_append_response_id',
  'language',
  'strings',
  'spam_protection',
  // Translations are added below, reduced to the texts the page shows (docs/languages.md).
  'languages',
] as const;

/** Question fields a respondent's page needs; `properties` is filtered by type below. */
// `validations` are rules the respondent must meet, checked by their page as by the server
// (docs/decisions.md "Logic and validations"): public on purpose.
export const PUBLIC_QUESTION_FIELDS = ['id', 'type', 'title', 'description', 'required', 'order', 'logic_jumps', 'validations'] as const;

type Pick = (value: unknown) => unknown;
/** A list of objects, each reduced to `keys`. */
const listOf = (keys: readonly string[]): Pick => (v) => (Array.isArray(v) ? v.map((item) => only(item, keys)) : undefined);
const keep: Pick = (v) => v;
const CHOICES = listOf(['id', 'label']);

/** Per question type, the properties a respondent's page needs and how to copy each. */
export const PUBLIC_PROPERTIES: Record<string, Record<string, Pick>> = {
  short_text: { placeholder: keep, max_length: keep },
  long_text: { placeholder: keep, max_length: keep },
  email: { placeholder: keep },
  number: { min: keep, max: keep },
  date: { format: keep },
  yes_no: {},
  multiple_choice: { choices: CHOICES, allow_multiple: keep, allow_other: keep, randomize: keep },
  dropdown: { choices: CHOICES },
  rating: { steps: keep, shape: keep },
  opinion_scale: { min: keep, max: keep, min_label: keep, max_label: keep },
  file_upload: { max_size_mb: keep, allowed_types: keep },
  question_group: { questions: listOf(['id', 'type', 'title', 'required']) },
  multi_question_page: { questions: listOf(['id', 'type', 'title', 'required']) },
  contact_info: { fields: keep, required_fields: keep },
  address: { fields: keep, required_fields: keep },
  booking: { hours: listOf(['day', 'start', 'end']), timezone: keep, durations: keep },
  payment: { amount: keep, currency: keep, description: keep },
  // A composite's components as its version pinned them (docs/logic.md "Composite"), each by the same allow-list.
  composite: { components: (v) => (Array.isArray(v) ? v.map(publicComponent) : undefined) },
  // contract, data, email_step and fuse questions are run by the server: nothing of theirs is public.
};

/**
 * One pinned component, grouped (docs/decisions.md "Composite forms"): its form's id and version, title and
 * description, its public questions with their own ids and logic, and its start jumps. The composite's answer
 * names each component answer `<form_id>/<question id>`.
 */
function publicComponent(c: unknown): Record<string, unknown> {
  const out = only(c, ['form_id', 'version', 'title', 'description', 'start_logic_jumps']);
  const questions = (c as { questions?: unknown } | null)?.questions;
  out.questions = Array.isArray(questions) ? (questions as Question[]).map(publicQuestion) : [];
  return out;
}

/**
 * Each public component of a composite gets the translations of its pinned version that the respondent may be
 * shown (translatable-texts.ts `componentTranslations`): the languages the composite offers, public texts only.
 */
function withComponentTranslations(snapshot: Record<string, unknown>, questions: Question[], shown: Array<Record<string, unknown>>): void {
  const offered = typeof snapshot.language === 'string' ? [snapshot.language, ...extraLanguages(snapshot)] : [];
  if (!offered.length) return;
  questions.forEach((q, i) => {
    const out = (shown[i]?.properties as { components?: Array<Record<string, unknown>> } | undefined)?.components;
    // The pinned components (composite-components.ts, not imported: the workspace's browser build reads this file).
    const pinned = q.type === 'composite' && Array.isArray(q.properties?.components) ? (q.properties.components as Array<Record<string, unknown>>) : [];
    pinned.forEach((c, j) => {
      const texts = c && Array.isArray(c.questions) ? componentTranslations(c, c.questions as Question[], offered) : null;
      if (texts && out?.[j]) out[j].translations = texts;
    });
  });
}

function only(value: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!value || typeof value !== 'object') return out;
  for (const k of keys) if (k in value) out[k] = (value as Record<string, unknown>)[k];
  return out;
}

export function publicQuestion(q: Question): Record<string, unknown> {
  const out = only(q, PUBLIC_QUESTION_FIELDS);
  const allowed = PUBLIC_PROPERTIES[q.type] ?? {};
  const properties: Record<string, unknown> = {};
  for (const [key, pick] of Object.entries(allowed)) {
    if (q.properties && key in q.properties) {
      const v = pick(q.properties[key]);
      if (v !== undefined) properties[key] = v;
    }
  }
  out.properties = properties;
  return out;
}

/**
 * Endings by id, title and description, for showing the ending the server matched (their score ranges stay
 * private), and whether the page offers a retake (`allow_retake`, docs/respondents.md "Quiz endings").
 */
function publicQuizSettings(settings: unknown): Record<string, unknown> | null {
  const endings = (settings as { endings?: unknown } | null | undefined)?.endings;
  if (!Array.isArray(endings)) return null;
  const retake = (settings as { allow_retake?: unknown }).allow_retake === true;
  return { endings: endings.map((e) => only(e, ['id', 'title', 'description'])), ...(retake ? { allow_retake: true } : {}) };
}

/** The public snapshot of a published version: allow-listed form and theme fields, and public questions. */
export function publicSnapshot(snapshot: Record<string, unknown>): Record<string, unknown> {
  const out = only(snapshot, [...PUBLIC_FORM_FIELDS, ...THEME_FIELDS]);
  const mode = snapshot.mode;
  out.quiz_settings = mode && mode !== 'standard' ? publicQuizSettings(snapshot.quiz_settings) : null;
  const questions = (snapshot.questions as Question[] | undefined) ?? [];
  out.questions = questions.map(publicQuestion);
  withComponentTranslations(snapshot, questions, out.questions as Array<Record<string, unknown>>);
  // Only a form with other languages carries them: one without says nothing of translations (nobody listed it for it).
  const translations = publicTranslations(snapshot, (snapshot.questions as Question[] | undefined) ?? []);
  if (translations) out.translations = translations;
  // Variables are private, but one a text recalls is shown to respondents anyway: its value is public then.
  const recalled = recalledVariables(snapshot, (snapshot.questions as Question[] | undefined) ?? []);
  const vars = (snapshot.variables ?? {}) as Record<string, unknown>;
  if (recalled.length) out.variables = Object.fromEntries(recalled.filter((n) => Object.hasOwn(vars, n)).map((n) => [n, vars[n]]));
  return out;
}
