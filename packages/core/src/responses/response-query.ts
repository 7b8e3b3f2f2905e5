import { badRequest } from '../errors';
import { queryBoolean } from '../pagination';
import { inclusiveRange } from '../date-range';
import type { ResponseFilter } from '../ports/storage';
import type { Question } from '../domain/types';
import { answerFilterTag, parseAnswerFilter, parseVersion } from './answer-filter';

/*
 * The responses list's filters and its keyset cursor (docs/responses-and-webhooks.md, "Searching the
 * answers" and "Cursor paging"). The list and the CSV export read the same filters, so "Download CSV"
 * exports exactly what the table shows.
 */

/** Longer searches are refused: a search is a scan, and nobody types 200 characters into a search box. */
export const MAX_SEARCH = 200;

/**
 * `since`, `until`, `completed`, `search`, `version` and `filter` (by answer, checked against `questions`,
 * the form's current ones) of the query; 400 in the documented shape for a bad one.
 */
export function responseFilter(query: Record<string, unknown>, questions: Question[] = []): ResponseFilter {
  const completed = queryBoolean(query.completed);
  if (completed instanceof Error) throw badRequest(`completed: ${completed.message}`, { field: 'completed' });
  const filter: ResponseFilter = { ...inclusiveRange(query), completed };
  const version = parseVersion(query.version);
  if (version !== undefined) filter.version = version;
  const answers = parseAnswerFilter(query.filter, questions);
  if (answers) filter.answers = answers;
  const language = query.language;
  if (language !== undefined) {
    if (typeof language !== 'string' || !/^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(language)) {
      throw badRequest('language: a language tag such as "de", given once', { field: 'language' });
    }
    filter.language = language;
  }
  const search = query.search;
  if (search !== undefined) {
    if (typeof search !== 'string') throw badRequest('search: must be given once, as text', { field: 'search' });
    const text = search.trim();
    if (text.length > MAX_SEARCH) throw badRequest(`search: at most ${MAX_SEARCH} characters`, { field: 'search' });
    if (text) filter.search = text;
  }
  return filter;
}

/** What a cursor carries: the last row shown, how many rows precede the next page, and perhaps the total. */
export interface ListCursor {
  after: { submitted_at: string; id: string };
  /** Rows before the next page: the answer's `page` is computed from it. */
  offset: number;
  /** Kept only when counting it was a scan (a search, or a bound inside a day), so later pages skip it. */
  total?: number;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/**
 * FNV-1a of the filters: a cursor made under other filters would carry the wrong total and page number,
 * so it is refused rather than silently mixed. Not a secret: the cursor only names rows of this form.
 */
function filterTag(filter: ResponseFilter): string {
  const parts: unknown[] = [filter.since ?? null, filter.until ?? null, filter.completed ?? null, filter.search ?? null];
  // Appended only when given, so cursors made before these filters existed stay valid.
  if (filter.version !== undefined || filter.answers !== undefined) parts.push(filter.version ?? null, answerFilterTag(filter.answers));
  if (filter.language !== undefined) parts.push({ language: filter.language });
  const text = JSON.stringify(parts);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export function encodeCursor(c: ListCursor, filter: ResponseFilter): string {
  const body = { v: 1, s: c.after.submitted_at, i: c.after.id, o: c.offset, f: filterTag(filter), ...(c.total === undefined ? {} : { t: c.total }) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The cursor of `next_cursor`, checked; 400 (field `cursor`) for anything else. */
export function decodeCursor(raw: unknown, filter: ResponseFilter): ListCursor {
  const bad = (why: string) => badRequest(`cursor: ${why}; use a next_cursor from this list, with the same filters`, { field: 'cursor' });
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 1000 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw bad('not a cursor');
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw bad('not a cursor');
  }
  if (!body || typeof body !== 'object' || body.v !== 1) throw bad('not a cursor');
  const { s, i, o, t, f } = body;
  if (typeof s !== 'string' || !TIMESTAMP.test(s) || typeof i !== 'string' || i.length === 0 || i.length > 100 || !isCount(o)) throw bad('not a cursor');
  if (t !== undefined && !isCount(t)) throw bad('not a cursor');
  if (f !== filterTag(filter)) throw bad('made with other filters');
  return { after: { submitted_at: s, id: i }, offset: o, ...(t === undefined ? {} : { total: t }) };
}

/**
 * Whether the storage's total for these filters costs a scan (a search, or a bound inside a UTC day: see
 * "How the list stays fast"), so a cursor should carry it instead of counting again on every page.
 */
export function totalIsCostly(filter: ResponseFilter): boolean {
  const inDay = (v: string | undefined, edge: string) => v !== undefined && !v.endsWith(edge);
  return filter.search !== undefined || filter.answers !== undefined || filter.version !== undefined || filter.language !== undefined || inDay(filter.since, 'T00:00:00.000Z') || inDay(filter.until, 'T23:59:59.999Z');
}
