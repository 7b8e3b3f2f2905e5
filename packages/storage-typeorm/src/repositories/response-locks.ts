import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { idBatches } from '../sql/statements';
import { applyDays, applyIndexes, type DayKey, rebuildQuestionDays, rebuildSql } from './response-days';
import { dropQueue, lockIndexing, stillQueued } from './response-indexer';

/*
 * The lock order of the responses and their queue rows (docs/decisions.md, "Lock order of the responses and their
 * queue"): what a completion, a delete and a rebuild of the analytics lock, and in which order, so that none of
 * them closes a cycle with the indexer's batches (response-indexer.ts) on PostgreSQL.
 */

/*
 * The lock a completion or a delete takes on its responses before it asks whether they are still queued
 * (`stillQueued`). Not FOR UPDATE: an indexer batch that holds a response's queue row inserts its answers index
 * rows, whose foreign key check takes the response in KEY SHARE mode, which FOR UPDATE blocks; the completion,
 * waiting for the batch's queue row, then closed a cycle (PostgreSQL's 40P01, "while locking tuple in relation
 * responses"). NO KEY UPDATE still orders two changes of one response. An UPDATE that changes unique_visitor (a
 * unique key) takes FOR UPDATE itself, but only once the response's queue row is locked or gone, when no batch
 * holds the response any more.
 */
export const ROW_LOCK = 'FOR NO KEY UPDATE';

/**
 * Those of `ids` still queued for the indexer, asked once the responses are locked (PostgreSQL): a response
 * committed between the two reads would otherwise look counted while its queue row is still there.
 */
export async function lockQueued(db: Db, d: Dialect, table: string, formId: string, ids: string[]): Promise<Set<string>> {
  if (d.kind === 'postgres') {
    for (const batch of idBatches(ids)) {
      const params = new Params(d);
      const where = `form_id = ${params.bind(formId)} AND id IN (${params.list(batch)})`;
      await db.all(`SELECT id FROM ${table} WHERE ${where} ORDER BY id ${ROW_LOCK}`, params.values);
    }
  }
  return stillQueued(db, d, ids);
}

/** The days of `gone` are corrected; the indexes only for those the indexer had counted (not `queued`). */
export async function removeFromRollup(db: Db, d: Dialect, formId: string, gone: DayKey[], queued: Set<string>): Promise<void> {
  await applyDays(db, d, formId, [], gone);
  await applyIndexes(db, d, formId, [], gone.filter((r) => !queued.has(String(r.id))));
}

/**
 * Recomputes the rollup of one form, or of all, from `table` (the responses). Call in a transaction. On
 * PostgreSQL the responses are locked against writers and row lockers meanwhile (EXCLUSIVE mode: plain reads go
 * on), so no write lands between the recount and its result; SQLite's transactions already exclude other writers.
 */
export async function rebuildRollup(db: Db, d: Dialect, table: string, formId?: string): Promise<void> {
  // The indexer's batches of the form (of every form) are waited for and held off; its queue is emptied, as the
  // recount counts every response.
  await lockIndexing(db, d, formId);
  // EXCLUSIVE, not SHARE: SHARE let a completion or a delete lock its response row (ROW SHARE) and its queue row
  // meanwhile, then wait here for its UPDATE's or DELETE's ROW EXCLUSIVE while the rebuild waited for that queue
  // row (emptying the queue) or that response row (its answers' foreign key check): a deadlock. Now such a change
  // has either finished before this lock is granted or takes its first row lock after the rebuild commits.
  if (d.kind === 'postgres') await db.run(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  await dropQueue(db, d, formId);
  for (const [sql, values] of rebuildSql(d, table, formId)) await db.run(sql, values);
  await rebuildQuestionDays(db, d, table, formId);
}
