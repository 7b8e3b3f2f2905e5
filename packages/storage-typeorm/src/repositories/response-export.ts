import type { CsvLineSource, PackedResponses, ResponseFilter } from '@formloom/core';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { copyPacked } from '../sql/pg-copy';
import { fromJson } from '../tables/columns';
import { ResponseEntity } from '../tables/responses';
import { returnedKeys, updateFromRows } from '../sql/coalesce';
import { copyExportSelect } from './response-export-copy';
import { filterConditions } from './response-search';

/*
 * The CSV export's reads (docs/responses-and-webhooks.md, "How the CSV export is fast"): pages of stored
 * lines where the export's columns are those the lines were written for, packed pages of the stored
 * fields elsewhere, and the rewriting of lines for new columns (`formloom export lines`).
 */

/** PostgreSQL returns COUNT and SUM as strings (bigint). */
type Num = number | string;

const EMPTY = Buffer.alloc(0);

/** Responses per transaction of `writeCsvLines`, and per statement. */
const LINES_BATCH = 500;
const ROWS_PER_UPDATE = 100;

/** The statements of responses.ts the export reads with. */
export interface ExportStatements {
  table: string;
  exportPage: string;
  exportPageHidden: string;
  exportNextKey: string;
}

/**
 * The form's (?1) rows after the keyset `(submitted_at, id) > (?2, ?3)`, at most ?4, without row values:
 * `submitted_at >= ?` starts a range on IDX_responses_form_submitted (an OR alone would make the database
 * filter the form's rows from the start on every page), the rest drops the rows of the same instant up to
 * the key.
 */
export const keysetPage = (d: Dialect, filter = '') => `${keysetAfter(d, filter)} LIMIT ${d.p(4)}`;

/** The form's (?1) rows after the keyset (?2, ?3) and `filter`, in key order: what a page and its next key walk. */
const keysetAfter = (d: Dialect, filter: string) =>
  `form_id = ${d.p(1)} AND submitted_at >= ${d.p(2)} AND (submitted_at > ${d.p(2)} OR id > ${d.p(3)})${filter} ` +
  `ORDER BY submitted_at, id`;

/**
 * One packed export page (see PackedResponses) after the keyset (?2, ?3), '' before the first row, with
 * each response's hidden field values when `hidden` (read from `metadata` only then). The
 * packing happens in the database, so a page reaches JavaScript as one value, not an object per row. The
 * next cursor is read by `exportNextKey`, not aggregated here: a per-row `max(submitted_at || id)` cost a
 * quarter of the database's time for the export (docs/benchmarks.md, "The CSV export").
 */
export function exportPageSql(d: Dialect, responses: string, hidden: boolean, filter = '', key?: string, language = false): string {
  // metadata is JSON text; `hidden` its object of hidden field values, written by JSON.stringify.
  const values = !hidden ? `''` : d.kind === 'sqlite' ? `(metadata -> '$.hidden')` : `(metadata::json -> 'hidden')::text`;
  // With the key of the export's columns: how many of the page's rows have a stored line for them.
  const fresh = key ? `, ${freshCount(key)}` : '';
  const layout = key ? ', csv_layout' : '';
  // The XLSX and JSON exports' labels are in each response's language, from the version it answered.
  const spoken = language ? ', language, version_id' : '';
  const page = `SELECT id, submitted_at, completed_at, answers, coalesce(${values}, '') AS hidden${layout}${spoken} FROM ${responses} WHERE ${keysetPage(d, filter)}`;
  const sep = d.kind === 'sqlite' ? 'char(31)' : 'chr(31)';
  const tail = language ? ` || ${sep} || coalesce(language, '') || ${sep} || coalesce(version_id, '')` : '';
  if (d.kind === 'sqlite') {
    // group_concat takes the rows in the order the subquery yields them (its index order); the cursor
    // does not depend on that, so a page can never skip or repeat a response.
    const packed = `id || char(31) || submitted_at || char(31) || coalesce(completed_at, '') || char(31) || hidden || char(31) || answers${tail} || char(30)`;
    return `SELECT CAST(group_concat(${packed}, '') AS BLOB) AS packed, count(*) AS n${fresh} FROM (${page})`;
  }
  // As on SQLite, the aggregate takes the rows in the order the subquery yields them (its index order). An
  // ORDER BY in string_agg made PostgreSQL 15 sort each page again: 21 ms a page instead of 13 (docs/benchmarks.md).
  const packed = `id || chr(31) || submitted_at || chr(31) || coalesce(completed_at, '') || chr(31) || hidden || chr(31) || answers${tail} || chr(30)`;
  return `SELECT string_agg(${packed}, '') AS packed, count(*) AS n${fresh} FROM (${page}) p`;
}

/** The rows of a page whose stored line is for the columns of `key` (a bound parameter). */
const freshCount = (key: string) => `count(CASE WHEN csv_layout = ${key} THEN 1 END) AS fresh`;

/**
 * One export page as the CSV lines stored with its rows, when they were written for the columns of `key`
 * (a bound parameter), with the count of such rows: when that is short of the page's, the caller reads the
 * page packed instead. Concatenating stored lines is the least the database can do for an export: the
 * same work as its CLI's dump of the rows (docs/benchmarks.md, "The CSV export").
 */
export function exportLinesSql(d: Dialect, responses: string, key: string, filter = ''): string {
  // On SQLite, from the index that holds the lines in this order (migration 1740800000000), named: without
  // statistics the planner would take IDX_responses_form_submitted and look each row up in the table.
  const from = d.kind === 'sqlite' ? `${responses} INDEXED BY "IDX_responses_form_lines"` : responses;
  const page = `SELECT csv_layout, csv_line FROM ${from} WHERE ${keysetPage(d, filter)}`;
  const lines = `CASE WHEN csv_layout = ${key} THEN csv_line END`;
  return d.kind === 'sqlite'
    ? `SELECT group_concat(${lines}, '') AS packed, count(*) AS n, ${freshCount(key)} FROM (${page})`
    : `SELECT string_agg(${lines}, '') AS packed, count(*) AS n, ${freshCount(key)} FROM (${page}) p`;
}

/**
 * The key of the ?4-th row (from 0) after the keyset (?2, ?3): with ?4 = page size - 1, the last row of
 * that page, which is the next page's cursor whatever order the page was packed in. An index-only walk.
 */
export function exportNextKeySql(d: Dialect, responses: string, filter = ''): string {
  return `SELECT submitted_at, id FROM ${responses} WHERE ${keysetAfter(d, filter)} LIMIT 1 OFFSET ${d.p(4)}`;
}

/**
 * Pages read one ahead with prepared statements, released when the iteration ends either way. With
 * `options.lines`, a page whose rows all have a line for those columns comes as those lines; the first
 * page without is read again packed, and the pages after it are read packed until one has lines again.
 */
export async function* readExportPages(
  scope: Scope,
  st: ExportStatements,
  formId: string,
  pageSize: number,
  options: { hidden?: boolean; filter?: ResponseFilter; lines?: string; language?: boolean } = {},
): AsyncIterable<PackedResponses> {
  const size = Math.max(1, Math.floor(pageSize));
  const { db, d } = scope;
  const language = !!options.language;
  if (d.kind === 'postgres' && db.copyOut) {
    const select = copyExportSelect(d, st.table, formId, !!options.hidden, options.filter, options.lines, language);
    if (select) return yield* copyPacked(db.copyOut(select), size, { lines: options.lines !== undefined });
  }
  // The list's filters after the keyset's four parameters (docs/responses-and-webhooks.md), then the key.
  const filterValues: unknown[] = [];
  const filter = options.filter ? filterConditions(d, options.filter, (v) => (filterValues.push(v), d.p(4 + filterValues.length)), formId) : '';
  const key = options.lines;
  const keyParam = key === undefined ? undefined : d.p(5 + filterValues.length);
  const sql = filter || keyParam || language
    ? exportPageSql(d, st.table, !!options.hidden, filter, keyParam, language)
    : options.hidden ? st.exportPageHidden : st.exportPage;
  type PageRow = { packed: Buffer | string | null; n: Num; fresh?: Num };
  const stmt = db.prepare<PageRow>(sql);
  const linesStmt = keyParam ? db.prepare<PageRow>(exportLinesSql(d, st.table, keyParam, filter)) : null;
  const keyStmt = db.prepare<{ submitted_at: string; id: string }>(filter ? exportNextKeySql(d, st.table, filter) : st.exportNextKey);
  const withKey = key === undefined ? [] : [key];
  const bytesOf = (row: PageRow | undefined) =>
    !row?.packed ? Buffer.alloc(0) : typeof row.packed === 'string' ? Buffer.from(row.packed, 'utf8') : row.packed;
  const read = async (after: string, afterId: string, lines: boolean) => {
    const at = [formId, after, afterId, size, ...filterValues];
    const [[first], [next]] = await Promise.all([
      (lines ? linesStmt! : stmt).all([...at, ...withKey]),
      keyStmt.all([formId, after, afterId, size - 1, ...filterValues]),
    ]);
    let row = first;
    const count = Number(row?.n ?? 0);
    const fresh = Number(row?.fresh ?? 0) === count;
    if (lines && !fresh) [row] = await stmt.all([...at, ...withKey]);
    // Lines stay text (PackedResponses.lines); a packed page is bytes.
    const text = lines && fresh ? (typeof row?.packed === 'string' ? row.packed : bytesOf(row).toString('utf8')) : null;
    return { count: Number(row?.n ?? 0), bytes: text === null ? bytesOf(row) : EMPTY, text, fresh, next: next ? ([next.submitted_at, next.id] as const) : null };
  };
  let pending: ReturnType<typeof read> | null = null;
  try {
    pending = read('', '', !!linesStmt);
    for (;;) {
      const page: Awaited<ReturnType<typeof read>> = await pending;
      pending = null;
      if (page.count === 0) return;
      if (page.count === size && page.next) {
        pending = read(page.next[0], page.next[1], !!linesStmt && page.fresh);
        // Nobody awaits it if the consumer stops at this page: its failure must not go unhandled.
        pending.catch(() => undefined);
      }
      yield page.text !== null ? { count: page.count, bytes: EMPTY, lines: page.text } : { count: page.count, bytes: page.bytes };
      if (!pending) return;
    }
  } finally {
    if (pending) await pending.catch(() => undefined);
    await Promise.all([stmt.close(), keyStmt.close(), linesStmt?.close()]);
  }
}

/**
 * Batches of 500 in key order, each written in one transaction by statements of 100 rows. A write applies
 * only while the answers and the completion are those the line was made from.
 */
export async function writeCsvLines(
  scope: Scope,
  table: string,
  formId: string,
  layout: string,
  line: (response: CsvLineSource) => string,
): Promise<number> {
  const { d } = scope;
  const read =
    `SELECT id, submitted_at, completed_at, answers, metadata FROM ${table} WHERE ${keysetAfter(d, ` AND (csv_layout IS NULL OR csv_layout <> ${d.p(4)})`)} ` +
    `LIMIT ${LINES_BATCH}`;
  const same = d.kind === 'sqlite' ? 'IS' : 'IS NOT DISTINCT FROM';
  const set = 'csv_layout = v."csv_layout", csv_line = v."csv_line"';
  const where = `t."form_id" = v."form_id" AND t."answers" = v."answers" AND t."completed_at" ${same} v."completed_at"`;
  type Row = { id: string; submitted_at: string; completed_at: string | null; answers: string; metadata: string };
  let after: [string, string] = ['', ''];
  let written = 0;
  for (;;) {
    const rows = await scope.db.all<Row>(read, [formId, after[0], after[1], layout]);
    if (rows.length === 0) return written;
    const updates = rows.map((r) => {
      const { id, submitted_at, completed_at } = r;
      const metadata = fromJson(r.metadata, { user_agent: null, referrer: null });
      const csv_line = line({ id, submitted_at, completed_at, answers: fromJson(r.answers, []), metadata });
      return { id, form_id: formId, answers: r.answers, completed_at, csv_layout: layout, csv_line };
    });
    written += await scope.atomic(async (db) => {
      let n = 0;
      for (let i = 0; i < updates.length; i += ROWS_PER_UPDATE) {
        n += (await returnedKeys(db, updateFromRows(d, table, ResponseEntity, updates.slice(i, i + ROWS_PER_UPDATE), 'id', set, where))).size;
      }
      return n;
    });
    const last = rows[rows.length - 1]!;
    after = [last.submitted_at, last.id];
  }
}
