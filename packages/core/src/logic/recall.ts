/**
 * Recall (docs/decisions.md "Recall"): a form's texts may show an earlier answer, a hidden field or a
 * variable. One syntax, in the dotted form of the email step's own `{respondent.email}`:
 *
 *   {answer.<question id>}     {hidden.<name>}     {var.<name>}
 *
 * each with an optional fallback after `|`, shown when the value is empty: `{answer.q_1|there}`. Questions are
 * named by id, so reordering and retitling keep the recall. Anything else in braces is plain text.
 *
 * Pure and dependency-free: the server checks recalls at publish, the respondent's page fills them in (this
 * file is compiled into its script), and the builder shows and inserts them.
 */

export type RecallKind = 'answer' | 'hidden' | 'var';
export const RECALL_KINDS: readonly RecallKind[] = ['answer', 'hidden', 'var'];

export interface Recall {
  kind: RecallKind;
  /** The question id, hidden field name or variable name. */
  name: string;
  /** Shown when the value is empty; '' when none was given. */
  fallback: string;
  /** The token as written, and where it starts in the text. */
  raw: string;
  index: number;
}

/** Longest fallback text: a few words, not a paragraph. */
export const MAX_FALLBACK = 200;
const TOKEN = /\{(answer|hidden|var)\.([A-Za-z0-9_-]{1,100})(?:\|([^{}]{0,200}))?\}/g;
/** The start of something meant as a recall: `{answer.`, `{hidden.` or `{var.`. */
const OPENING = /\{(?:answer|hidden|var)\./g;

/** The recalls of a text, in order. */
export function parseRecalls(text: unknown): Recall[] {
  if (typeof text !== 'string' || !text.includes('{')) return [];
  const out: Recall[] = [];
  for (const m of text.matchAll(TOKEN)) {
    out.push({ kind: m[1] as RecallKind, name: m[2]!, fallback: (m[3] ?? '').trim(), raw: m[0], index: m.index! });
  }
  return out;
}

/**
 * Openings of a recall that do not read as one (`{answer.}`, `{var.total` without its `}`, a fallback holding
 * a brace): returned as written, so a publish check can name them rather than show them to respondents.
 */
export function malformedRecalls(text: unknown): string[] {
  if (typeof text !== 'string' || !text.includes('{')) return [];
  const good = new Set(parseRecalls(text).map((r) => r.index));
  const bad: string[] = [];
  for (const m of text.matchAll(OPENING)) if (!good.has(m.index!)) bad.push(/^\{[^}\s]{0,40}\}?/.exec(text.slice(m.index!))![0]);
  return bad;
}

/** Text and recalls in order: for showing a recall as a chip between the text around it. */
export function recallParts(text: string): Array<string | Recall> {
  const parts: Array<string | Recall> = [];
  let at = 0;
  for (const r of parseRecalls(text)) {
    if (r.index > at) parts.push(text.slice(at, r.index));
    parts.push(r);
    at = r.index + r.raw.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** The token for a recall, as the builder inserts it. */
export function recallToken(kind: RecallKind, name: string, fallback = ''): string {
  const f = fallback.replace(/[{}]/g, '').trim().slice(0, MAX_FALLBACK);
  return `{${kind}.${name}${f ? `|${f}` : ''}}`;
}

/**
 * The text with each recall replaced by `value(recall)` (already formatted), or its fallback when that is
 * empty or unknown. `encode` applies to the inserted values only (encodeURIComponent in a redirect URL).
 */
export function fillRecalls(text: string, value: (r: Recall) => string | null | undefined, encode: (s: string) => string = (s) => s): string {
  if (!text.includes('{')) return text;
  return text.replace(TOKEN, (raw, kind: RecallKind, name: string, fallback: string | undefined) => {
    const v = value({ kind, name, fallback: (fallback ?? '').trim(), raw, index: 0 });
    return encode(v !== null && v !== undefined && v !== '' ? v : (fallback ?? '').trim());
  });
}

/** Rewrites the question ids recalled in a text (a new question's id given by the client, then the service's). */
export function renameRecalls(text: string, ids: ReadonlyMap<string, string>): string {
  if (!ids.size || !text.includes('{answer.')) return text;
  return text.replace(TOKEN, (raw, kind: string, name: string, fallback: string | undefined) =>
    kind === 'answer' && ids.has(name) ? `{answer.${ids.get(name)}${fallback !== undefined ? `|${fallback}` : ''}}` : raw,
  );
}

/** How a recalled value reads: words for yes and no, the page's language for numbers, dates and lists. */
export interface RecallFormat {
  locale?: string;
  yes?: string;
  no?: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A stored answer as text (docs/decisions.md "Answer values"): a choice answer is its label already, several
 * choices a list, a number and a `YYYY-MM-DD` date in the page's language, yes/no in words, a file by its
 * name, contact and address answers by their parts. Empty answers give ''.
 */
export function formatRecallValue(value: unknown, f: RecallFormat = {}): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    const d = DATE.exec(value.trim());
    if (d) {
      try {
        return new Intl.DateTimeFormat(f.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!));
      } catch {
        return value.trim();
      }
    }
    return value.trim();
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    try {
      return new Intl.NumberFormat(f.locale).format(value);
    } catch {
      return String(value);
    }
  }
  if (typeof value === 'boolean') return value ? (f.yes ?? 'Yes') : (f.no ?? 'No');
  if (Array.isArray(value)) {
    const items = value.map((v) => formatRecallValue(v, f)).filter(Boolean);
    try {
      return new Intl.ListFormat(f.locale, { type: 'conjunction' }).format(items);
    } catch {
      return items.join(', ');
    }
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.name === 'string' && typeof o.url === 'string') return o.name;
    return Object.values(o).map((v) => formatRecallValue(v, f)).filter(Boolean).join(', ');
  }
  return '';
}
