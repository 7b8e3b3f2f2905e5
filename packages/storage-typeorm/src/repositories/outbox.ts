import {
  FormloomError,
  type OutboxClaim,
  type OutboxItem,
  type OutboxRepository,
} from '@formloom/core';
import { type OutboxRow, OutboxEntity, outboxFromRow, outboxToRow } from '../tables/outbox';
import type { Scope } from '../scope';
import { type Dialect, Params } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';
import type { Row } from '../sql/db';
import { Coalescer, insertCoalescer, returnedKeys, updateFromRows } from '../sql/coalesce';

export const outboxStatements = (d: Dialect) => {
  const outbox = tableOf(d, OutboxEntity);
  const release = `locked_by = NULL, locked_until = NULL`;
  const leasedBy = `id = ${d.p(1)} AND locked_by = ${d.p(2)} AND status = 'pending'`;
  return {
    table: outbox,
    enqueue: insertIgnoring(d, OutboxEntity),
    byId: `SELECT * FROM ${outbox} WHERE id = ${d.p(1)}`,
    clearPayload: `UPDATE ${outbox} SET payload = '{}' WHERE id = ${d.p(1)} AND status <> 'pending'`,
    settleFinal:
      `UPDATE ${outbox} SET status = ${d.p(3)}, last_error = ${d.p(4)}, ${release}, updated_at = ${d.p(5)} ` +
      `WHERE ${leasedBy}`,
    // Not while a worker holds it: its settlement would then find nothing, or undo the operator's change.
    requeue:
      `UPDATE ${outbox} SET status = 'pending', next_attempt_at = ${d.p(2)}, ${release}, updated_at = ${d.p(2)} ` +
      `WHERE id = ${d.p(1)} AND status IN ('pending', 'failed') AND (locked_until IS NULL OR locked_until <= ${d.p(2)})`,
    drop: `DELETE FROM ${outbox} WHERE id = ${d.p(1)} AND status IN ('pending', 'failed') AND (locked_until IS NULL OR locked_until <= ${d.p(2)})`,
    settleRetry:
      `UPDATE ${outbox} SET next_attempt_at = ${d.p(3)}, last_error = ${d.p(4)}, ${release}, updated_at = ${d.p(5)}, ` +
      `attempts = attempts - ${d.p(6)} WHERE ${leasedBy}`,
  };
};

export class SqlOutboxRepository implements OutboxRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(outboxStatements);
  }

  // In a transaction, rows sent together go in one statement each kind (sql/coalesce.ts).
  private coalesced: { enqueue: Coalescer<Row, boolean>; settle: Coalescer<Row, boolean> } | null = null;

  private get together() {
    if (!this.scope.beforeCommit) return null;
    const { d, db } = this.scope;
    return (this.coalesced ??= {
      enqueue: insertCoalescer(d, db, OutboxEntity, (row) => this.enqueueOne(row)),
      settle: new Coalescer((rows) => this.settleMany(rows), (row) => this.settleOne(row)),
    });
  }

  private async enqueueOne(row: Row): Promise<boolean> {
    return (await this.scope.db.run(this.st.enqueue.sql, this.st.enqueue.values(row))) > 0;
  }

  async enqueue(item: OutboxItem): Promise<void> {
    const row = outboxToRow(item);
    const inserted = await (this.together?.enqueue.call(row) ?? this.enqueueOne(row));
    if (!inserted) throw new FormloomError('CONFLICT', `Outbox item ${item.id} already exists`);
  }

  /**
   * One statement that picks the due items and leases them, so no second claimer can slip in between:
   * SQLite runs a writing statement under its database write lock (and the adapter's lock inside one
   * process); PostgreSQL locks the picked rows with FOR UPDATE SKIP LOCKED, so a concurrent claim skips
   * them, and re-checks a row committed by another claimer before taking it. Each lease counts as an attempt.
   */
  async claim(claim: OutboxClaim): Promise<OutboxItem[]> {
    if (claim.limit <= 0 || (claim.kinds && claim.kinds.length === 0)) return [];
    const { d, db } = this.scope;
    const st = this.st;
    const params = new Params(d);
    const bind = params.bind;
    const now = bind(claim.now);
    const kinds = claim.kinds ? ` AND kind IN (${params.list(claim.kinds)})` : '';
    const due =
      `SELECT id FROM ${st.table} WHERE status = 'pending' AND next_attempt_at <= ${now} ` +
      `AND (locked_until IS NULL OR locked_until <= ${now})${kinds} ` +
      `ORDER BY next_attempt_at, id LIMIT ${bind(Math.floor(claim.limit))}`;
    const lease = `locked_by = ${bind(claim.workerId)}, locked_until = ${bind(claim.leaseUntil)}, attempts = attempts + 1, updated_at = ${now}`;
    const sql =
      d.kind === 'postgres'
        ? `WITH due AS (${due} FOR UPDATE SKIP LOCKED) ` +
          `UPDATE ${st.table} AS o SET ${lease} FROM due WHERE o.id = due.id RETURNING o.*`
        : `UPDATE ${st.table} SET ${lease} WHERE id IN (${due}) RETURNING *`;
    const rows = await db.all<OutboxRow>(sql, params.values);
    return rows
      .map(outboxFromRow)
      .sort((a, b) => cmp(a.next_attempt_at, b.next_attempt_at) || cmp(a.id, b.id));
  }

  async settle(
    id: string,
    workerId: string,
    outcome:
      | { status: 'delivered' | 'failed'; error?: string | null }
      | { status: 'pending'; nextAttemptAt: string; error?: string | null; unrun?: boolean },
    now: string,
  ): Promise<boolean> {
    const row: Row = {
      id,
      worker: workerId,
      status: outcome.status === 'pending' ? null : outcome.status,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      last_error: outcome.error ?? null,
      updated_at: now,
      // Not a count: 1 takes back the lease's attempt of an item handed back unrun (`attempts` is the column whose type it binds as).
      attempts: outcome.status === 'pending' && outcome.unrun ? 1 : 0,
    };
    const settle = this.together?.settle;
    return settle ? settle.call(row) : this.settleOne(row);
  }

  /** Settlements of one transaction in one statement; which of them were still leased as given. */
  private async settleMany(rows: Row[]): Promise<boolean[]> {
    const set =
      `status = coalesce(v.status, t.status), next_attempt_at = coalesce(v.next_attempt_at, t.next_attempt_at), ` +
      `last_error = v.last_error, locked_by = NULL, locked_until = NULL, updated_at = v.updated_at, attempts = t.attempts - v.attempts`;
    const where = `t.locked_by = v.worker AND t.status = 'pending'`;
    const done = await returnedKeys(this.scope.db, updateFromRows(this.scope.d, this.st.table, OutboxEntity, rows, 'id', set, where));
    return rows.map((r) => done.delete(String(r.id))); // a repeated settlement: only its first took the lease
  }

  private async settleOne(row: Row): Promise<boolean> {
    const { db } = this.scope;
    const changed =
      row.status === null
        ? await db.run(this.st.settleRetry, [row.id, row.worker, row.next_attempt_at, row.last_error, row.updated_at, row.attempts])
        : await db.run(this.st.settleFinal, [row.id, row.worker, row.status, row.last_error, row.updated_at]);
    return changed > 0;
  }

  async clearPayload(id: string): Promise<void> {
    await this.scope.db.run(this.st.clearPayload, [id]);
  }

  /** One statement, bounded by `limit`, so a large backlog is purged in short transactions. */
  async purge(query: { before: string; limit: number; kinds?: string[] }): Promise<number> {
    if (query.limit <= 0 || (query.kinds && query.kinds.length === 0)) return 0;
    const { d, db } = this.scope;
    const st = this.st;
    const params = new Params(d);
    const bind = params.bind;
    const kinds = query.kinds ? ` AND kind IN (${params.list(query.kinds)})` : '';
    const old =
      `SELECT id FROM ${st.table} WHERE status IN ('delivered', 'failed') AND updated_at < ${bind(query.before)}${kinds} ` +
      `ORDER BY updated_at LIMIT ${bind(Math.floor(query.limit))}`;
    return db.run(`DELETE FROM ${st.table} WHERE id IN (${old})`, params.values);
  }

  async listStuck(query: { limit: number; kinds?: string[] }): Promise<OutboxItem[]> {
    if (query.limit <= 0 || (query.kinds && query.kinds.length === 0)) return [];
    const { d, db } = this.scope;
    const params = new Params(d);
    const kinds = query.kinds ? ` AND kind IN (${params.list(query.kinds)})` : '';
    const sql =
      `SELECT * FROM ${this.st.table} WHERE (status = 'failed' OR (status = 'pending' AND last_error IS NOT NULL))${kinds} ` +
      `ORDER BY next_attempt_at, id LIMIT ${params.bind(Math.floor(query.limit))}`;
    return (await db.all<OutboxRow>(sql, params.values)).map(outboxFromRow);
  }

  async requeue(id: string, now: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.requeue, [id, now])) > 0;
  }

  async drop(id: string, now: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.drop, [id, now])) > 0;
  }

  async findById(id: string): Promise<OutboxItem | null> {
    const [row] = await this.scope.db.all<OutboxRow>(this.st.byId, [id]);
    return row ? outboxFromRow(row) : null;
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
