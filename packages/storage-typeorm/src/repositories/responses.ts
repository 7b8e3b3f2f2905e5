import {
  type CsvLine,
  type CsvLineSource,
  FormloomError,
  type FuseLink,
  type PackedResponses,
  type QuestionValueCount,
  type Page,
  type ResponseAnalytics,
  type ResponseFilter,
  type ResponseListQuery,
  type ResponseRecord,
  type ResponseRepository,
} from '@formloom/core';
import { fromJson } from '../tables/columns';
import { type ResponseRow, ResponseEntity, partialResponseToRow, responseFromRow, responseToRow } from '../tables/responses';
import type { Scope } from '../scope';
import { findByRespondent } from './respondent-data';
import { responsesPastRetention } from './response-retention';
import type { Db, Row } from '../sql/db';
import { type Coalescer, insertCoalescer } from '../sql/coalesce';
import { type Dialect, filterOnly, isUniqueViolation, Params } from '../sql/dialect';
import { idBatches, insertIgnoring, tableOf } from '../sql/statements';
import { rollupPage, rollupTotal } from './response-pages';
import { filterConditions } from './response-search';
import { exportNextKeySql, exportPageSql, keysetPage, readExportPages, writeCsvLines } from './response-export';
import { applyDays, applyIndexes, type DayKey, rollupAnalytics } from './response-days';
import { catchUp, PendingRollups, queueResponses, stillQueued } from './response-indexer';
import { lockQueued, rebuildRollup, removeFromRollup, ROW_LOCK } from './response-locks';
import { readRangeValueCounts, readValueCounts } from './question-values';
import { deleteAnswerRows } from './answer-index';
import { readFunnel, readFunnelVersions, recordVisits } from './funnel';
import { filteredSummary } from './filtered-summary';
import { countParams, drivenMatch } from './answer-filter-sql';

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
      `quiz_results = ${d.p(6)}, unique_visitor = ${d.p(7)}, submitted_at = ${d.p(8)}, csv_layout = ${d.p(9)}, csv_line = ${d.p(10)}, ` +
      `metadata = COALESCE(${d.p(11)}, metadata) ` +
      `WHERE form_id = ${d.p(1)} AND id = ${d.p(2)} AND completed_at IS NULL`,
    /**
     * The row a completion replaces, locked on PostgreSQL until the transaction ends (response-locks.ts, ROW_LOCK: another
     * completion waits, the indexer's foreign key checks do not).
     */
    lockPartial:
      `SELECT submitted_at, completed_at, completion_seconds, answers, version FROM ${responses} WHERE form_id = ${d.p(1)} AND id = ${d.p(2)}` +
      (d.kind === 'postgres' ? ` ${ROW_LOCK}` : ''),
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

/** What a deleted row hands back so its day in the rollup can be corrected. */
const ROLLUP_COLUMNS = 'id, submitted_at, completed_at, completion_seconds, answers, version';

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
    // Inside a transaction the days are applied once for all its inserts, just before it commits: a group commit
    // of many submissions then updates each day's row once. The analytics indexes are the indexer's work
    // (response-indexer.ts): the response is queued for it in the same statement-per-transaction.
    const deferred = this.scope.beforeCommit?.task(PendingRollups, () => new PendingRollups(this.scope.d, this.scope.db, this.scope.queued));
    if (deferred) {
      // Inserts sent together (a group commit's submissions) go in one statement (sql/coalesce.ts).
      this.inserts ??= insertCoalescer(this.scope.d, this.scope.db, ResponseEntity, async (one) => (await this.scope.db.run(sql, values(one))) > 0);
      if (!(await this.inserts.call(row))) throw await this.insertConflict(response.id);
      return deferred.add(response.form_id, { ...row, id: response.id });
    }
    await this.scope.atomic(async (db) => {
      if ((await db.run(sql, values(row))) === 0) throw await this.insertConflict(response.id, db);
      await Promise.all([applyDays(db, this.scope.d, response.form_id, [row], []), queueResponses(db, this.scope.d, [[response.id, response.form_id]])]);
    });
    this.scope.queued(1);
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
    patch: Pick<ResponseRecord, 'answers' | 'completed_at' | 'completion_seconds' | 'quiz_results' | 'unique_visitor' | 'submitted_at'> & { metadata?: ResponseRecord['metadata'] },
    csv?: CsvLine | null,
  ): Promise<boolean> {
    const row = partialResponseToRow(patch, csv);
    const params = [
      formId, id, row.answers, row.completed_at, row.completion_seconds, row.quiz_results, row.unique_visitor, row.submitted_at,
      row.csv_layout, row.csv_line, row.metadata,
    ];
    return this.scope.atomic(async (db) => {
      const [old] = await db.all<DayKey>(this.st.lockPartial, [formId, id]);
      if (!old || old.completed_at !== null) return false;
      // Still waiting for the indexer: it will count the response as this leaves it (response-indexer.ts). Asked
      // once the response is locked: a response seen committed has its queue row committed with it.
      const queued = (await stillQueued(db, this.scope.d, [id])).size > 0;
      let changed: number;
      try {
        changed = await db.run(this.st.updatePartial, params);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflictingVisitor();
        throw err;
      }
      if (changed === 0) return false;
      const now = { ...row, id, version: old.version };
      await applyDays(db, this.scope.d, formId, [now], [old]);
      if (queued) return true;
      // Counted already: the answers index is replaced (the completion may have changed any answer).
      await deleteAnswerRows(db, this.scope.d, id);
      await applyIndexes(db, this.scope.d, formId, [now], [old]);
      return true;
    });
  }

  /**
   * From the rollup and a keyset seek when the range is whole days (response-pages.ts), after `after` by
   * keyset, else by OFFSET; the total from `query.total`, the rollup, or a COUNT (a search's is a scan).
   */
  async list(query: ResponseListQuery): Promise<Page<ResponseRecord>> {
    const { db, d } = this.scope;
    if (query.answers !== undefined) await this.caughtUp(query.formId);
    if (!query.after && query.total === undefined) {
      const fast = await rollupPage(db, d, this.st.table, query);
      if (fast) return fast;
    }
    const driven = await this.drivenList(query);
    if (driven) return driven;
    const params = new Params(d);
    const filter = `FROM ${this.st.table} WHERE form_id = ${params.bind(query.formId)}${filterConditions(d, query, params.bind, query.formId)}`;
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

  /**
   * A filter by answer whose responses can be read from the answers index (answer-filter-sql.ts,
   * `drivenMatch`): the page in the index's order, the total counted there, each page's responses looked up
   * by id. `null` when the filter has no test that can drive it.
   */
  private async drivenList(query: ResponseListQuery): Promise<Page<ResponseRecord> | null> {
    const { db, d } = this.scope;
    const rest = (f: ResponseFilter, bind: (v: unknown) => string) => filterConditions(d, f, bind, query.formId);
    const page = new Params(d);
    const m = drivenMatch(d, this.st.table, query.formId, query, page.bind, rest);
    if (!m) return null;
    const keyset = query.after
      ? ` AND m.m_at <= ${page.bind(query.after.submitted_at)} AND (m.m_at < ${page.bind(query.after.submitted_at)} OR m.m_id < ${page.bind(query.after.id)})`
      : '';
    const limit =
      `ORDER BY m.m_at DESC, m.m_id DESC LIMIT ${page.bind(Math.max(0, Math.floor(query.limit)))}` +
      (query.after ? '' : ` OFFSET ${page.bind(Math.max(0, Math.floor(query.offset)))}`);
    // The driver alone is the whole filter: the page is taken from the index first and only its rows are looked
    // up. A range on numbers is in number order there, so every match is sorted; looking each one up before the
    // sort cost a row read per match (NPS >= 9 over 100,000 responses: 360 ms for a page of 25).
    const sql = m.alone
      ? `SELECT r.* FROM (SELECT m.m_id, m.m_at FROM ${m.rows} WHERE 1 = 1${keyset} ${limit}) m ${m.lookup} WHERE ${m.where} ORDER BY m.m_at DESC, m.m_id DESC`
      : `SELECT r.* FROM ${m.from} WHERE ${m.where}${keyset} ${limit}`;
    const count = async () => {
      if (query.total !== undefined) return query.total;
      const c = new Params(d);
      const mc = drivenMatch(d, this.st.table, query.formId, query, c.bind, rest)!;
      // The driver alone when it is the whole filter: an index range, no response read.
      const [row] = mc.alone
        ? await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${mc.rows}`, c.values.slice(0, countParams(mc.rows)))
        : await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${mc.from} WHERE ${mc.where}`, c.values);
      return Number(row!.n);
    };
    const [rows, total] = await Promise.all([db.all<ResponseRow>(sql, page.values), count()]);
    return { items: rows.map(responseFromRow), total };
  }

  async delete(formId: string, id: string): Promise<boolean> {
    return this.scope.atomic(async (db) => {
      const queued = await lockQueued(db, this.scope.d, this.st.table, formId, [id]);
      const gone = await db.all<DayKey>(this.st.delete, [formId, id]);
      await removeFromRollup(db, this.scope.d, formId, gone, queued);
      return gone.length > 0;
    });
  }

  async countOwned(formId: string, ids: string[]): Promise<number> {
    let owned = 0;
    for (const batch of idBatches(ids)) {
      const [row] = await this.scope.db.all<{ n: number | string }>(...this.byIds('SELECT COUNT(DISTINCT id) AS n', formId, batch));
      owned += Number(row.n);
    }
    return owned;
  }

  pastRetention(formId: string, policy: { before?: string; keep_newest?: number }, limit: number): Promise<string[]> {
    return responsesPastRetention(this.scope, formId, policy, limit);
  }

  findByRespondent(formIds: string[] | null, match: { email?: string; visitor_id?: string }, limit: number): Promise<ResponseRecord[]> {
    return findByRespondent(this.scope, formIds, match, limit);
  }

  /** One DELETE per 500 ids, all in one transaction with the rollup's correction. */
  async deleteMany(formId: string, ids: string[]): Promise<number> {
    const all = idBatches(ids);
    if (all.length === 0) return 0;
    return this.scope.atomic(async (db: Db) => {
      const gone: DayKey[] = [];
      const queued = await lockQueued(db, this.scope.d, this.st.table, formId, ids);
      for (const batch of all) {
        const [sql, values] = this.byIds('DELETE', formId, batch);
        gone.push(...(await db.all<DayKey>(`${sql} RETURNING ${ROLLUP_COLUMNS}`, values)));
      }
      await removeFromRollup(db, this.scope.d, formId, gone, queued);
      return gone.length;
    });
  }

  /** Recomputes the rollup of one form, or of all, in one transaction (response-locks.ts, `rebuildRollup`). */
  async rebuildAnalytics(formId?: string): Promise<void> {
    await this.scope.atomic((db) => rebuildRollup(db, this.scope.d, this.st.table, formId));
  }

  /**
   * Before a read of the tables the indexer writes: the form's queued responses are counted first, so the read
   * sees every acknowledged response (response-indexer.ts, `catchUp`; one seek when none waits).
   */
  private caughtUp(formId: string): Promise<void> {
    return catchUp(this.scope.db, this.scope.d, this.scope.atomic, formId);
  }

  async questionValues(formId: string, firstDay?: string, lastDay?: string): Promise<QuestionValueCount[]> {
    await this.caughtUp(formId);
    return readValueCounts(this.scope.db, this.scope.d, formId, firstDay, lastDay);
  }

  async questionRangeValues(formId: string, questionIds: string[], ranges: Array<{ first: string; last: string }>) {
    await this.caughtUp(formId);
    return readRangeValueCounts(this.scope.db, this.scope.d, formId, questionIds, ranges);
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

  /** See response-export.ts. */
  exportPages(
    formId: string,
    pageSize: number,
    options: { hidden?: boolean; filter?: ResponseFilter; lines?: string } = {},
  ): AsyncIterable<PackedResponses> {
    const pages = () => readExportPages(this.scope, this.st, formId, pageSize, options);
    if (options.filter?.answers === undefined) return pages();
    // A filter by answer reads the answers index: the form's queued responses are counted first.
    const caughtUp = () => this.caughtUp(formId);
    return (async function* () {
      await caughtUp();
      yield* pages();
    })();
  }

  async hasFuseLinks(formId: string): Promise<boolean> {
    const params = new Params(this.scope.d);
    // The links are keys of the metadata's JSON text (docs/logic.md "Fuse"); this condition, word for word, is the
    // one of the partial index IDX_responses_fuse_links (migration 1742600000000), which answers it alone.
    const rows = await this.scope.db.all(`SELECT 1 AS x FROM ${this.st.table} WHERE form_id = ${params.bind(formId)} AND metadata LIKE '%"fused_%' LIMIT 1`, params.values);
    return rows.length > 0;
  }

  async fuseLinks(formId: string, ids: string[]): Promise<Array<{ id: string; fused_from: FuseLink | null; fused_to: FuseLink | null }>> {
    const out: Array<{ id: string; fused_from: FuseLink | null; fused_to: FuseLink | null }> = [];
    for (const batch of idBatches(ids)) {
      const [sql, values] = this.byIds('SELECT id, metadata', formId, batch);
      for (const row of await this.scope.db.all<{ id: string; metadata: string | null }>(`${sql} AND metadata LIKE '%"fused_%'`, values)) {
        const m = fromJson<ResponseRecord['metadata']>(row.metadata, { user_agent: null, referrer: null });
        if (m.fused_from || m.fused_to) out.push({ id: row.id, fused_from: m.fused_from ?? null, fused_to: m.fused_to ?? null });
      }
    }
    return out;
  }

  /** See response-export.ts. */
  writeCsvLines(
    formId: string,
    layout: string,
    line: (response: CsvLineSource) => string,
  ): Promise<number> {
    return writeCsvLines(this.scope, this.st.table, formId, layout, line);
  }

  /** From the rollup: the cost depends on the days asked for, not on the responses stored (response-days.ts). */
  async analytics(formId: string, since?: string, until?: string): Promise<ResponseAnalytics> {
    await this.caughtUp(formId);
    return rollupAnalytics(this.scope.db, this.scope.d, this.st.table, formId, since, until);
  }

  /** See answer-filter-sql.ts: the matching responses' counts, read in SQL from the answers index. */
  async filteredSummary(formId: string, filter: ResponseFilter) {
    await this.caughtUp(formId);
    return filteredSummary(this.scope.db, this.scope.d, this.st.table, formId, filter);
  }

  async funnel(formId: string, version: number | null) {
    await this.caughtUp(formId);
    return readFunnel(this.scope.db, this.scope.d, formId, version ?? 0);
  }

  async funnelVersions(formId: string) {
    await this.caughtUp(formId);
    return readFunnelVersions(this.scope.db, this.scope.d, formId);
  }

  async recordVisits(formId: string, version: number, views: number, starts: number) {
    await recordVisits(this.scope.db, this.scope.d, formId, version, views, starts);
  }

  async hasUniqueVisitor(formId: string, visitor: string): Promise<boolean> {
    return (await this.scope.db.all(this.st.hasUniqueVisitor, [formId, visitor])).length > 0;
  }

  private byIds(head: string, formId: string, ids: string[]): [string, unknown[]] {
    const params = new Params(this.scope.d);
    const sql = `${head} FROM ${this.st.table} WHERE ${filterOnly(this.scope.d, 'form_id')} = ${params.bind(formId)} AND id IN (${params.list(ids)})`;
    return [sql, params.values];
  }
}

