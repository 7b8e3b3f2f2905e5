import type { Page, ResponseListQuery } from '@formloom/core';
import { type ResponseRow, responseFromRow } from '../tables/responses';
import type { ResponseRecord } from '@formloom/core';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { rollupStatements } from './response-days';

/*
 * The responses list without a count of the form's responses and without an OFFSET scan of the rows
 * before the page (docs/responses-and-webhooks.md, "How the list stays fast"). When the range is whole
 * UTC days (or open), the rollup gives the total and tells on which day the page's first row lies (its
 * days are counted from the newest); the boundary row is then found inside that one day by an index-only
 * seek on IDX_responses_form_submitted, and the page is read from it by keyset. The order and the page
 * contents are exactly those of `ORDER BY submitted_at DESC, id DESC LIMIT n OFFSET m`.
 */

const START = 'T00:00:00.000Z';
const END = 'T23:59:59.999Z';

type Num = number | string;

/** Whether the rollup can count for `q`: no search, version or filter by answer, and a range of whole UTC days (or open). */
const countable = (q: ResponseListQuery) =>
  q.search === undefined && q.version === undefined && q.answers === undefined && q.language === undefined && (q.since === undefined || q.since.endsWith(START)) && (q.until === undefined || q.until.endsWith(END));

/** The rollup's days of the range, newest first, with the count of each under `completed`. */
async function rollupDays(db: Db, d: Dialect, q: ResponseListQuery): Promise<Array<{ day: string; n: number }>> {
  const { table } = rollupStatements(d);
  const params = new Params(d);
  let where = `form_id = ${params.bind(q.formId)} AND total > 0`;
  if (q.since !== undefined) where += ` AND day >= ${params.bind(q.since.slice(0, 10))}`;
  if (q.until !== undefined) where += ` AND day <= ${params.bind(q.until.slice(0, 10))}`;
  const days = await db.all<{ day: string; total: Num; completed: Num }>(
    `SELECT day, total, completed FROM ${table} WHERE ${where} ORDER BY day DESC`,
    params.values,
  );
  const countOf = (r: { total: Num; completed: Num }) =>
    q.completed === undefined ? Number(r.total) : q.completed ? Number(r.completed) : Number(r.total) - Number(r.completed);
  return days.map((r) => ({ day: r.day, n: countOf(r) }));
}

/** The list's total from the rollup, or `null` when it cannot count these filters (the caller counts rows). */
export async function rollupTotal(db: Db, d: Dialect, q: ResponseListQuery): Promise<number | null> {
  if (!countable(q)) return null;
  return (await rollupDays(db, d, q)).reduce((a, r) => a + r.n, 0);
}

/** `null` when the rollup cannot serve the filters: the caller then counts and pages the plain way. */
export async function rollupPage(db: Db, d: Dialect, responses: string, q: ResponseListQuery): Promise<Page<ResponseRecord> | null> {
  if (!countable(q)) return null;
  const offset = Math.max(0, Math.floor(q.offset));
  const limit = Math.max(0, Math.floor(q.limit));
  let total = 0;
  let target: { day: string; skip: number } | null = null;
  for (const r of await rollupDays(db, d, q)) {
    if (!target && offset < total + r.n) target = { day: r.day, skip: offset - total };
    total += r.n;
  }
  if (!target || limit === 0) return { items: [], total };

  const status = q.completed === undefined ? '' : ` AND completed_at IS ${q.completed ? 'NOT NULL' : 'NULL'}`;
  // The page's first row: the skip-th of its day, newest first, read from the index alone.
  const [first] = await db.all<{ submitted_at: string; id: string }>(
    `SELECT submitted_at, id FROM ${responses} WHERE form_id = ${d.p(1)} AND submitted_at >= ${d.p(2)} ` +
      `AND submitted_at <= ${d.p(3)}${status} ORDER BY submitted_at DESC, id DESC LIMIT 1 OFFSET ${d.p(4)}`,
    [q.formId, `${target.day}${START}`, `${target.day}${END}`, target.skip],
  );
  // A write between the two reads moved the day's rows: the plain way answers this once.
  if (!first) return null;
  const page = new Params(d);
  let pageWhere =
    `form_id = ${page.bind(q.formId)} AND submitted_at <= ${page.bind(first.submitted_at)} ` +
    `AND (submitted_at < ${page.bind(first.submitted_at)} OR id <= ${page.bind(first.id)})${status}`;
  if (q.since !== undefined) pageWhere += ` AND submitted_at >= ${page.bind(q.since)}`;
  const rows = await db.all<ResponseRow>(
    `SELECT * FROM ${responses} WHERE ${pageWhere} ORDER BY submitted_at DESC, id DESC LIMIT ${page.bind(limit)}`,
    page.values,
  );
  return { items: rows.map(responseFromRow), total };
}
