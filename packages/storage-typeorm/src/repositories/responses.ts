import {
  type CsvLine,
  FormloomError,
  type PackedResponses,
  type QuestionValueCount,
  type Page,
  type ResponseAnalytics,
  type ResponseFilter,
  type ResponseListQuery,
  type ResponseRecord,
  type ResponseRepository,
} from '@formloom/core';
import { type ResponseRow, ResponseEntity, partialResponseToRow, responseFromRow, responseToRow } from '../tables/responses';
import type { Scope } from '../scope';
import type { Db, Row } from '../sql/db';
import { type Coalescer, insertCoalescer } from '../sql/coalesce';
import { type Dialect, isUniqueViolation, Params } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';
import { rollupPage, rollupTotal } from './response-pages';
import { filterConditions } from './response-search';
import { copyExportSelect } from './response-export-copy';
import { copyPacked } from '../sql/pg-copy';
import { applyToRollup, type DayKey, PendingRollups, rebuildQuestionDays, rebuildSql, rollupAnalytics } from './response-days';
import { questionOrder } from './question-days';
import { readValueCounts } from './question-values';

export const responseStatements = (d: Dialect) => {
  const responses = tableOf(d, ResponseEntity);
  return {
    table: responses,
    insert: insertIgnoring(d, ResponseEntity),
    byId: `SELECT * FROM ${responses} WHERE form_id = ${d.p(1)} AND id = ${d.p(2)}`,
    idTaken: `SELECT 1 AS found FROM ${responses} WHERE id = ${d.p(1)}`,
    /** The check (still partial) and the write are one statement, so only one of concurrent completions wins. */
    updatePartial:
      `UPDATE ${responses} SET answers = ${d.p(3)}, completed_at = ${d.p(4)}, completion_seconds = ${d.p(5)}, ` +
      `quiz_results = ${d.p(6)}, unique_visitor = ${d.p(7)}, submitted_at = ${d.p(8)}, csv_layout = ${d.p(9)}, csv_line = ${d.p(10)} ` +
      `WHERE form_id = ${d.p(1)} AND id = ${d.p(2)} AND completed_at IS NULL`,
    /** The row a completion replaces, locked on PostgreSQL until the transaction ends. */
    lockPartial:
      `SELECT submitted_at, completed_at, completion_seconds, answers FROM ${responses} WHERE form_id = ${d.p(1)} AND id = ${d.p(2)}` +
      (d.kind === 'postgres' ? ' FOR UPDATE' : ''),
    delete: `DELETE FROM ${responses} WHERE form_id = ${d.p(1)} AND id = ${d.p(2)} RETURNING ${ROLLUP_COLUMNS}`,
    hasUniqueVisitor:
      `SELECT 1 AS found FROM ${responses} ` +
      `WHERE form_id = ${d.p(1)} AND unique_visitor = ${d.p(2)} AND completed_at IS NOT NULL LIMIT 1`,
    scanFirst: `SELECT * FROM ${responses} WHERE form_id = ${d.p(1)} ORDER BY submitted_at, id LIMIT ${d.p(2)}`,
    scanAfter: `SELECT * FROM ${responses} WHERE ${keysetPage(d)}`,
    exportPage: exportPageSql(d, responses, false),
    exportPageHidden: exportPageSql(d, responses, true),
    exportNextKey: exportNextKeySql(d, responses),
  };
};

/**
 * The form's (?1) rows after the keyset `(submitted_at, id) > (?2, ?3)`, at most ?4, without row values:
 * `submitted_at >= ?` starts a range on IDX_responses_form_submitted (an OR alone would make the database
 * filter the form's rows from the start on every page), the rest drops the rows of the same instant up to
 * the key.
 */
const keysetPage = (d: Dialect, filter = '') => `${keysetAfter(d, filter)} LIMIT ${d.p(4)}`;

/** The form's (?1) rows after the keyset (?2, ?3) and `filter`, in key order: what a page and its next key walk. */
const keysetAfter = (d: Dialect, filter: string) =>
  `form_id = ${d.p(1)} AND submitted_at >= ${d.p(2)} AND (submitted_at > ${d.p(2)} OR id > ${d.p(3)})${filter} ` +
  `ORDER BY submitted_at, id`;

/**
 * One packed export page (see PackedResponses) after the keyset (?2, ?3), '' before the first row, with
 * each response's hidden field values when `hidden` (read from `metadata` only then). The
 * packing happens in the database, so a page reaches JavaScript as one value, not an object per row. The
 * next cursor is read by `exportNextKey`, not aggregated here: a per-row `max(submitted_at || id)` cost a
 * quarter of the database's time for the export (docs/benchmarks.md, "CSV export").
 */
function exportPageSql(d: Dialect, responses: string, hidden: boolean, filter = '', key?: string): string {
  // metadata is JSON text; `hidden` its object of hidden field values, written by JSON.stringify.
  const values = !hidden ? `''` : d.kind === 'sqlite' ? `(metadata -> '$.hidden')` : `(metadata::json -> 'hidden')::text`;
  const page = `SELECT id, submitted_at, completed_at, answers, coalesce(${values}, '') AS hidden, csv_layout FROM ${responses} WHERE ${keysetPage(d, filter)}`;
  // With the key of the export's columns: how many of the page's rows have a stored line for them.
  const fresh = key ? `, ${freshCount(key)}` : '';
  if (d.kind === 'sqlite') {
    // group_concat takes the rows in the order the subquery yields them (its index order); the cursor
    // does not depend on that, so a page can never skip or repeat a response.
    const packed = `id || char(31) || submitted_at || char(31) || coalesce(completed_at, '') || char(31) || hidden || char(31) || answers || char(30)`;
    return `SELECT CAST(group_concat(${packed}, '') AS BLOB) AS packed, count(*) AS n${fresh} FROM (${page})`;
  }
  // As on SQLite, the aggregate takes the rows in the order the subquery yields them (its index order). An
  // ORDER BY in string_agg made PostgreSQL 15 sort each page again: 21 ms a page instead of 13 (docs/benchmarks.md).
  const packed = `id || chr(31) || submitted_at || chr(31) || coalesce(completed_at, '') || chr(31) || hidden || chr(31) || answers || chr(30)`;
  return `SELECT string_agg(${packed}, '') AS packed, count(*) AS n${fresh} FROM (${page}) p`;
}

/** The rows of a page whose stored line is for the columns of `key` (a bound parameter). */
const freshCount = (key: string) => `count(CASE WHEN csv_layout = ${key} THEN 1 END) AS fresh`;

/**
 * One export page as the CSV lines stored with its rows, when they were written for the columns of `key`
 * (a bound parameter), with the count of such rows: when that is short of the page's, the caller reads the
 * page packed instead. Concatenating stored lines is the least the database can do for an export: the
 * same work as its CLI's dump of the rows (docs/benchmarks.md, "Session 14").
 */
function exportLinesSql(d: Dialect, responses: string, key: string, filter = ''): string {
  const page = `SELECT csv_layout, csv_line FROM ${responses} WHERE ${keysetPage(d, filter)}`;
  const lines = `CASE WHEN csv_layout = ${key} THEN csv_line END`;
  return d.kind === 'sqlite'
    ? `SELECT CAST(group_concat(${lines}, '') AS BLOB) AS packed, count(*) AS n, ${freshCount(key)} FROM (${page})`
    : `SELECT string_agg(${lines}, '') AS packed, count(*) AS n, ${freshCount(key)} FROM (${page}) p`;
}

/**
 * The key of the ?4-th row (from 0) after the keyset (?2, ?3): with ?4 = page size - 1, the last row of
 * that page, which is the next page's cursor whatever order the page was packed in. An index-only walk.
 */
function exportNextKeySql(d: Dialect, responses: string, filter = ''): string {
  return `SELECT submitted_at, id FROM ${responses} WHERE ${keysetAfter(d, filter)} LIMIT 1 OFFSET ${d.p(4)}`;
}

/** PostgreSQL returns COUNT and SUM as strings (bigint). */
type Num = number | string;

/** What a deleted row hands back so its day in the rollup can be corrected. */
const ROLLUP_COLUMNS = 'submitted_at, completed_at, completion_seconds, answers';

/** Ids per statement: far below both databases' bound-parameter limits. */
const BATCH = 500;

const conflictingVisitor = () =>
  new FormloomError('CONFLICT', 'This visitor has already responded to this form', { field: 'unique_visitor' });

export class SqlResponseRepository implements ResponseRepository {
  constructor(private readonly scope: Scope) {}

  private inserts: Coalescer<Row, boolean> | null = null;

  private get st() {
    return this.scope.statements(responseStatements);
  }

  /** ON CONFLICT DO NOTHING: a repeated id or unique_visitor changes no row and leaves a PostgreSQL transaction usable. */
  async insert(response: ResponseRecord, csv?: CsvLine | null): Promise<void> {
    const { sql, values } = this.st.insert;
    const row = responseToRow(response, csv);
    // Inside a transaction the rollup is applied once for all its inserts, just before it commits: a group
    // commit of many submissions then updates each counter row once (docs/benchmarks.md, "Session 7").
    const deferred = this.scope.beforeCommit?.task(PendingRollups, () => new PendingRollups(this.scope.d, this.scope.db));
    if (deferred) {
      // Inserts sent together (a group commit's submissions) go in one statement (sql/coalesce.ts).
      this.inserts ??= insertCoalescer(this.scope.d, this.scope.db, ResponseEntity, async (one) => (await this.scope.db.run(sql, values(one))) > 0);
      if (!(await this.inserts.call(row))) throw await this.insertConflict(response.id);
      return deferred.add(response.form_id, row);
    }
    await this.scope.atomic(async (db) => {
      // The questions' order (for drop-off) is read alongside the insert: one round trip fewer while the
      // write transaction is held.
      const order = questionOrder(db, this.scope.d, response.form_id);
      order.catch(() => undefined);
      const [inserted] = await Promise.allSettled([db.run(sql, values(row)), order]);
      if (inserted.status === 'rejected') throw inserted.reason;
      if (inserted.value === 0) throw await this.insertConflict(response.id, db);
      await applyToRollup(db, this.scope.d, response.form_id, [row], [], order);
    });
  }

  /** Why an insert changed no row: its id is taken, or its visitor has already responded. */
  private async insertConflict(id: string, db = this.scope.db): Promise<FormloomError> {
    const idTaken = await db.all(this.st.idTaken, [id]);
    return idTaken.length > 0 ? new FormloomError('CONFLICT', `Response ${id} already exists`) : conflictingVisitor();
  }

  async findById(formId: string, id: string): Promise<ResponseRecord | null> {
    const [row] = await this.scope.db.all<ResponseRow>(this.st.byId, [formId, id]);
    return row ? responseFromRow(row) : null;
  }

  /**
   * One conditional UPDATE. A unique_visitor collision is the unique index's error, turned into CONFLICT;
   * on PostgreSQL that error also ends the surrounding transaction, so let the CONFLICT propagate.
   */
  async updatePartial(
    formId: string,
    id: string,
    patch: Pick<ResponseRecord, 'answers' | 'completed_at' | 'completion_seconds' | 'quiz_results' | 'unique_visitor' | 'submitted_at'>,
    csv?: CsvLine | null,
  ): Promise<boolean> {
    const row = partialResponseToRow(patch, csv);
    const params = [
      formId, id, row.answers, row.completed_at, row.completion_seconds, row.quiz_results, row.unique_visitor, row.submitted_at,
      row.csv_layout, row.csv_line,
    ];
    return this.scope.atomic(async (db) => {
      const [old] = await db.all<DayKey>(this.st.lockPartial, [formId, id]);
      if (!old || old.completed_at !== null) return false;
      let changed: number;
      try {
        changed = await db.run(this.st.updatePartial, params);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflictingVisitor();
        throw err;
      }
      if (changed === 0) return false;
      await applyToRollup(db, this.scope.d, formId, [row], [old]);
      return true;
    });
  }

  /**
   * From the rollup and a keyset seek when the range is whole days (response-pages.ts), after `after` by
   * keyset, else by OFFSET; the total from `query.total`, the rollup, or a COUNT (a search's is a scan).
   */
  async list(query: ResponseListQuery): Promise<Page<ResponseRecord>> {
    const { db, d } = this.scope;
    if (!query.after && query.total === undefined) {
      const fast = await rollupPage(db, d, this.st.table, query);
      if (fast) return fast;
    }
    const params = new Params(d);
    const filter = `FROM ${this.st.table} WHERE form_id = ${params.bind(query.formId)}${filterConditions(d, query, params.bind)}`;
    const filterValues = [...params.values];
    const limit = params.bind(Math.max(0, Math.floor(query.limit)));
    const keyset = query.after
      ? ` AND submitted_at <= ${params.bind(query.after.submitted_at)} AND (submitted_at < ${params.bind(query.after.submitted_at)} OR id < ${params.bind(query.after.id)})`
      : '';
    const page =
      `SELECT * ${filter}${keyset} ORDER BY submitted_at DESC, id DESC LIMIT ${limit}` +
      (query.after ? '' : ` OFFSET ${params.bind(Math.max(0, Math.floor(query.offset)))}`);
    const count = async () => {
      if (query.total !== undefined) return query.total;
      const fromRollup = await rollupTotal(db, d, query);
      if (fromRollup !== null) return fromRollup;
      const [row] = await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n ${filter}`, filterValues);
      return Number(row.n);
    };
    const [rows, total] = await Promise.all([db.all<ResponseRow>(page, params.values), count()]);
    return { items: rows.map(responseFromRow), total };
  }

  async delete(formId: string, id: string): Promise<boolean> {
    return this.scope.atomic(async (db) => {
      const gone = await db.all<DayKey>(this.st.delete, [formId, id]);
      await applyToRollup(db, this.scope.d, formId, [], gone);
      return gone.length > 0;
    });
  }

  async countOwned(formId: string, ids: string[]): Promise<number> {
    let owned = 0;
    for (const batch of batches(ids)) {
      const [row] = await this.scope.db.all<{ n: number | string }>(...this.byIds('SELECT COUNT(DISTINCT id) AS n', formId, batch));
      owned += Number(row.n);
    }
    return owned;
  }

  /** One DELETE per 500 ids, all in one transaction with the rollup's correction. */
  async deleteMany(formId: string, ids: string[]): Promise<number> {
    const all = batches(ids);
    if (all.length === 0) return 0;
    return this.scope.atomic(async (db: Db) => {
      const gone: DayKey[] = [];
      for (const batch of all) {
        const [sql, values] = this.byIds('DELETE', formId, batch);
        gone.push(...(await db.all<DayKey>(`${sql} RETURNING ${ROLLUP_COLUMNS}`, values)));
      }
      await applyToRollup(db, this.scope.d, formId, [], gone);
      return gone.length;
    });
  }

  /**
   * Recomputes the rollup of one form, or of all, from `responses` in one transaction. On PostgreSQL the
   * responses table is locked against writers meanwhile (SHARE mode: reads go on), so no write lands
   * between the recount and its result; SQLite's transactions already exclude other writers.
   */
  async rebuildAnalytics(formId?: string): Promise<void> {
    const { d } = this.scope;
    await this.scope.atomic(async (db) => {
      if (d.kind === 'postgres') await db.run(`LOCK TABLE ${this.st.table} IN SHARE MODE`);
      for (const [sql, values] of rebuildSql(d, this.st.table, formId)) await db.run(sql, values);
      await rebuildQuestionDays(db, d, this.st.table, formId);
    });
  }

  async questionValues(formId: string, firstDay?: string, lastDay?: string): Promise<QuestionValueCount[]> {
    return readValueCounts(this.scope.db, this.scope.d, formId, firstDay, lastDay);
  }

  async scan(formId: string, after: { submitted_at: string; id: string } | null, limit: number): Promise<ResponseRecord[]> {
    const { db } = this.scope;
    const st = this.st;
    const n = Math.max(0, Math.floor(limit));
    if (n === 0) return [];
    const rows = after
      ? await db.all<ResponseRow>(st.scanAfter, [formId, after.submitted_at, after.id, n])
      : await db.all<ResponseRow>(st.scanFirst, [formId, n]);
    return rows.map(responseFromRow);
  }

  /**
   * Pages read one ahead with prepared statements, released when the iteration ends either way. With
   * `options.lines`, a page whose rows all have a line for those columns comes as those lines; the first
   * page without is read again packed, and the pages after it are read packed until one has lines again.
   */
  async *exportPages(
    formId: string,
    pageSize: number,
    options: { hidden?: boolean; filter?: ResponseFilter; lines?: string } = {},
  ): AsyncIterable<PackedResponses> {
    const size = Math.max(1, Math.floor(pageSize));
    const { db, d } = this.scope;
    if (d.kind === 'postgres' && db.copyOut) {
      const select = copyExportSelect(d, this.st.table, formId, !!options.hidden, options.filter, options.lines);
      if (select) return yield* copyPacked(db.copyOut(select), size, { lines: options.lines !== undefined });
    }
    // The list's filters after the keyset's four parameters (docs/responses-and-webhooks.md), then the key.
    const filterValues: unknown[] = [];
    const filter = options.filter ? filterConditions(d, options.filter, (v) => (filterValues.push(v), d.p(4 + filterValues.length))) : '';
    const key = options.lines;
    const keyParam = key === undefined ? undefined : d.p(5 + filterValues.length);
    const sql = filter || keyParam
      ? exportPageSql(d, this.st.table, !!options.hidden, filter, keyParam)
      : options.hidden ? this.st.exportPageHidden : this.st.exportPage;
    type PageRow = { packed: Buffer | string | null; n: Num; fresh?: Num };
    const stmt = db.prepare<PageRow>(sql);
    const linesStmt = keyParam ? db.prepare<PageRow>(exportLinesSql(d, this.st.table, keyParam, filter)) : null;
    const keyStmt = db.prepare<{ submitted_at: string; id: string }>(filter ? exportNextKeySql(d, this.st.table, filter) : this.st.exportNextKey);
    const withKey = key === undefined ? [] : [key];
    const bytesOf = (row: PageRow | undefined) =>
      !row?.packed ? Buffer.alloc(0) : typeof row.packed === 'string' ? Buffer.from(row.packed, 'utf8') : row.packed;
    const read = async (after: string, afterId: string, lines: boolean) => {
      const at = [formId, after, afterId, size, ...filterValues];
      const [[first], [next]] = await Promise.all([(lines ? linesStmt! : stmt).all([...at, ...withKey]), keyStmt.all([formId, after, afterId, size - 1, ...filterValues])]);
      let row = first;
      const count = Number(row?.n ?? 0);
      const fresh = Number(row?.fresh ?? 0) === count;
      if (lines && !fresh) [row] = await stmt.all([...at, ...withKey]);
      return { count: Number(row?.n ?? 0), bytes: bytesOf(row), lines: lines && fresh, fresh, next: next ? ([next.submitted_at, next.id] as const) : null };
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
        yield page.lines ? { count: page.count, bytes: page.bytes, lines: true } : { count: page.count, bytes: page.bytes };
        if (!pending) return;
      }
    } finally {
      if (pending) await pending.catch(() => undefined);
      await Promise.all([stmt.close(), keyStmt.close(), linesStmt?.close()]);
    }
  }

  /** From the rollup: the cost depends on the days asked for, not on the responses stored (response-days.ts). */
  async analytics(formId: string, since?: string, until?: string): Promise<ResponseAnalytics> {
    return rollupAnalytics(this.scope.db, this.scope.d, this.st.table, formId, since, until);
  }

  async hasUniqueVisitor(formId: string, visitor: string): Promise<boolean> {
    return (await this.scope.db.all(this.st.hasUniqueVisitor, [formId, visitor])).length > 0;
  }

  private byIds(head: string, formId: string, ids: string[]): [string, unknown[]] {
    const params = new Params(this.scope.d);
    const sql = `${head} FROM ${this.st.table} WHERE form_id = ${params.bind(formId)} AND id IN (${params.list(ids)})`;
    return [sql, params.values];
  }
}

/** The distinct ids in statement-sized batches (none for no ids). */
function batches(ids: string[]): string[][] {
  const unique = [...new Set(ids)];
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += BATCH) out.push(unique.slice(i, i + BATCH));
  return out;
}
