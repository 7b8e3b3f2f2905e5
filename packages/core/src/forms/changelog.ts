import { SETTINGS_FIELDS, THEME_FIELDS } from '../domain/form-fields';
import type { ChangelogEntry, Question } from '../domain/types';

export type Snapshot = Record<string, unknown> & { title: string; description: string | null; questions: Question[] };

const same = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

/** JSON with object keys sorted, so that equal values compare equal whatever their key order. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const content = ({ order: _order, ...rest }: Question) => rest;
const quote = (q: Question) => `"${q.title}"`;

/**
 * The changelog of a new version: the first version is `form_created` + `published`; later ones list
 * what differs from the last published snapshot.
 */
export function computeChangelog(previous: Snapshot | null, next: Snapshot): ChangelogEntry[] {
  if (!previous) {
    return [
      { type: 'form_created', description: `Form "${next.title}" created` },
      { type: 'published', description: 'First version published' },
    ];
  }
  const out: ChangelogEntry[] = [];
  if (previous.title !== next.title) {
    out.push({ type: 'title_changed', description: `Title changed from "${previous.title}" to "${next.title}"` });
  }
  if ((previous.description ?? null) !== (next.description ?? null)) {
    out.push({ type: 'description_changed', description: 'Description changed' });
  }
  const before = new Map(previous.questions.map((q) => [q.id, q]));
  const after = new Map(next.questions.map((q) => [q.id, q]));
  for (const q of next.questions) {
    const old = before.get(q.id);
    if (!old) out.push({ type: 'question_added', description: `Question ${quote(q)} added` });
    else if (!same(content(old), content(q))) out.push({ type: 'question_updated', description: `Question ${quote(q)} updated` });
  }
  for (const q of previous.questions) {
    if (!after.has(q.id)) out.push({ type: 'question_deleted', description: `Question ${quote(q)} deleted` });
  }
  const keptBefore = previous.questions.filter((q) => after.has(q.id)).map((q) => q.id);
  const keptAfter = next.questions.filter((q) => before.has(q.id)).map((q) => q.id);
  if (!same(keptBefore, keptAfter)) out.push({ type: 'question_reordered', description: 'Questions reordered' });
  const changed = (fields: readonly string[]) => fields.filter((f) => !same(previous[f], next[f]));
  const theme = changed(THEME_FIELDS);
  if (theme.length) out.push({ type: 'theme_changed', description: `Theme changed: ${theme.join(', ')}` });
  const settings = changed(SETTINGS_FIELDS);
  if (settings.length) out.push({ type: 'settings_changed', description: `Settings changed: ${settings.join(', ')}` });
  return out;
}
