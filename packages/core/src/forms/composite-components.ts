import type { FormRecord, Question, Version } from '../domain/types';
import type { Storage } from '../ports/storage';

/*
 * Composite questions (docs/logic.md "Composite", docs/decisions.md "Composite forms"): a question made of other
 * published forms of the same owner (or team), answered in place as one flow. At publish the composite's version
 * pins each component's published version (its questions and start jumps), so the version respondents answer is
 * fixed: a component republished later reaches the composite when the composite is published again.
 */

/**
 * Kinds a component may not hold: each needs a response of its own form while the respondent is still on the
 * page (a payment, a held slot, a step the server runs, a contract to sign, an upload to that form) or leaves the
 * flow (Fuse), and a composite inside a composite would nest without end.
 */
export const UNCOMPOSABLE_KINDS: readonly string[] = ['payment', 'booking', 'email_step', 'data', 'fuse', 'composite', 'contract', 'file_upload'];

/** A component as the composite's version pins it (its `properties.components`, never public as such). */
export interface PinnedComponent {
  form_id: string;
  version_id: string;
  version: number;
  title: string;
  description: string | null;
  questions: Question[];
  start_logic_jumps: unknown[];
  hidden_fields: string[];
  /** Its quiz mode and scoring, for its response's `quiz_results` (private, as the form's own). */
  mode?: string;
  /**
   * Its default language, other languages and translations (machine ones included) as its version has them: the
   * page shows its texts in the respondent's language (docs/languages.md "Composite forms"). Absent in versions
   * pinned before they were kept.
   */
  language?: string | null;
  languages?: string[];
  translations?: Record<string, Record<string, string>> | null;
  quiz_settings?: unknown;
}

/** The separator of a composite answer's keys: `<component form id>/<question id>`. */
export const KEY_SEPARATOR = '/';

/** The key of a component question's answer inside the composite's answer. */
export const componentKey = (formId: string, questionId: string) => `${formId}${KEY_SEPARATOR}${questionId}`;

/** The component form ids of a composite question, each once, in order. */
export function componentIds(q: Pick<Question, 'properties'>): string[] {
  const ids = q.properties.composite_ids;
  return Array.isArray(ids) ? [...new Set(ids.filter((x): x is string => typeof x === 'string'))] : [];
}

/** The pinned components of a composite question of a published snapshot; none for other kinds. */
export function pinnedComponents(q: Pick<Question, 'type' | 'properties'>): PinnedComponent[] {
  const list = q.type === 'composite' ? q.properties.components : undefined;
  return Array.isArray(list) ? (list as PinnedComponent[]) : [];
}

/** A form may compose another of its own scope only: the same owner's personal forms, or the same team's forms. */
export function sameScope(a: Pick<FormRecord, 'owner_id' | 'team_id'>, b: Pick<FormRecord, 'owner_id' | 'team_id'>): boolean {
  return a.team_id ? a.team_id === b.team_id : !b.team_id && a.owner_id === b.owner_id;
}

/** A component form and its live version: `form` null when it does not exist for the composite (deleted, or another's). */
export interface ComponentRead {
  form: FormRecord | null;
  version: Version | null;
}

/** Reads a component of `parent` as the publish checks and the submission see it. */
export async function readComponent(storage: Storage, parent: Pick<FormRecord, 'owner_id' | 'team_id'>, id: string): Promise<ComponentRead> {
  const form = await storage.forms.findById(id);
  if (!form || !sameScope(parent, form)) return { form: null, version: null };
  const version = form.published && form.published_version_id ? await storage.versions.findById(form.published_version_id) : null;
  return { form, version };
}

const questionsOf = (v: Version | null) => ((v?.snapshot.questions as Question[] | undefined) ?? []);

/** What the publish policy needs of a component (publish-policy.ts). */
export async function componentState(storage: Storage, parent: Pick<FormRecord, 'owner_id' | 'team_id'>, id: string) {
  const { form, version } = await readComponent(storage, parent, id);
  if (!form) return null;
  const questions = questionsOf(version);
  return { published: !!version, question_count: questions.length, unsupported: questions.some((q) => UNCOMPOSABLE_KINDS.includes(q.type)) };
}

/** Pins the components of each composite question of a snapshot being published (after the publish checks passed). */
export async function pinComponents(storage: Storage, parent: Pick<FormRecord, 'owner_id' | 'team_id'>, snapshot: { questions?: unknown }): Promise<void> {
  const questions = (snapshot.questions as Question[] | undefined) ?? [];
  for (const q of questions) {
    if (q.type !== 'composite') continue;
    const components: PinnedComponent[] = [];
    for (const id of componentIds(q)) {
      const { form, version } = await readComponent(storage, parent, id);
      if (!form || !version) continue;
      const snap = version.snapshot;
      components.push({
        form_id: form.id,
        version_id: version.id,
        version: version.version,
        title: String(snap.title ?? form.title),
        description: (snap.description as string | null | undefined) ?? null,
        questions: [...questionsOf(version)].sort((a, b) => a.order - b.order),
        start_logic_jumps: Array.isArray(snap.start_logic_jumps) ? snap.start_logic_jumps : [],
        hidden_fields: Array.isArray(snap.hidden_fields) ? (snap.hidden_fields as string[]) : [],
        ...(Array.isArray(snap.languages) && snap.languages.length
          ? { language: (snap.language as string | null | undefined) ?? null, languages: snap.languages as string[], translations: (snap.translations as PinnedComponent['translations']) ?? null }
          : {}),
        ...(typeof snap.mode === 'string' && snap.mode !== 'standard' ? { mode: snap.mode, quiz_settings: snap.quiz_settings } : {}),
      });
    }
    q.properties = { ...q.properties, components };
  }
}

/**
 * The form's questions with each composite's components as its live version pinned them, for the export's
 * columns (codecs/csv.ts): the draft's composite questions name their forms only.
 */
export async function withPinnedComponents(storage: Storage, form: Pick<FormRecord, 'published_version_id'>, questions: Question[]): Promise<Question[]> {
  if (!questions.some((q) => q.type === 'composite') || !form.published_version_id) return questions;
  const version = await storage.versions.findById(form.published_version_id);
  const live = new Map(questionsOf(version).map((q) => [q.id, q]));
  return questions.map((q) => {
    const pinned = live.get(q.id);
    return q.type === 'composite' && pinned && pinnedComponents(pinned).length ? { ...q, properties: { ...q.properties, components: pinned.properties.components } } : q;
  });
}

/** A version's question as a draft holds it: a composite names its forms only (restoring a version). */
export function withoutPinned(q: Question): Question {
  if (q.type !== 'composite' || !('components' in q.properties)) return q;
  const { components: _pinned, ...properties } = q.properties;
  return { ...q, properties };
}
