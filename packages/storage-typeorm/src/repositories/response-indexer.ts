import { allSettledOrThrow } from '@formloom/core';
import { ResponseEntity } from '../tables/responses';
import { ResponseIndexQueueEntity } from '../tables/response-index-queue';
import type { Db } from '../sql/db';
import { type Dialect, filterOnly, Params } from '../sql/dialect';
import { idBatches, tableOf, writeRows } from '../sql/statements';
import type { CommitTask } from '../scope';
import { applyDays, applyIndexes, type DayKey, type IndexDeltas, indexDeltas, writeIndexes } from './response-days';
import { type QuestionOrder, questionOrder } from './question-days';

/*
 * The analytics indexer (docs/responses-and-webhooks.md, "How a submission is counted"; docs/decisions.md, "The
 * analytics indexer"). A submission's transaction writes the response, its day in `response_days` and one row in
 * `response_index_queue`; the question, value and funnel counters, the answers index and the pair counts of the
 * queued responses are written here, many responses at a time (their counters summed first), each slice with the
 * deletion of its queue rows in one transaction. A background batch (background-indexer.ts: when the writer is free
 * of submissions, or the backlog has passed its bound) reads its responses and computes their counters before any
 * transaction, then writes them in slices (`indexRead`). Every read of those tables first indexes the form's queued
 * responses (`catchUp`), so readers see every acknowledged response as if it had been counted at once.
 *
 * Who counts a response is decided by its queue row: a batch deletes the rows it counts, and a change to a response
 * (completion, deletion) first locks its row (`stillQueued`). Still queued: the change leaves the counters alone, and
 * the batch that deletes the row later counts the response as it then is (a slice reads its claimed responses again
 * in its transaction and recounts them when one changed since the batch read it). Gone: the response was counted, the change
 * corrects the counters as before. On PostgreSQL the row lock orders the two (a change waits for a batch that holds
 * the row, a batch for a change that does), and batches of one form are serialized by an advisory lock, so two
 * instances never count a response twice; SQLite runs one write transaction at a time.
 */

/** Responses per batch: their counters are summed, then written in a few statements. */
export const INDEX_BATCH = 500;
/** First keys of the advisory locks: per form (`hashtext(form_id)`), and the one a whole rebuild takes alone. */
const FORM_LOCK = 0x666c6978; // 'flix'
const ALL_LOCK = 0x666c6961; // 'flia'

const queueTable = (d: Dialect) => tableOf(d, ResponseIndexQueueEntity);

/** Queues responses (`[response_id, form_id]`) for the indexer: one statement for a group commit's responses. */
export async function queueResponses(db: Db, d: Dialect, rows: Array<[string, string]>): Promise<void> {
  await writeRows(db, d, ResponseIndexQueueEntity, ['response_id', 'form_id'], rows, 'ON CONFLICT DO NOTHING');
}

/** Whether the form has responses waiting: one seek in IDX_response_index_queue_form. */
export async function hasQueued(db: Db, d: Dialect, formId: string): Promise<boolean> {
  return (await db.all(`SELECT 1 AS x FROM ${queueTable(d)} WHERE form_id = ${d.p(1)} LIMIT 1`, [formId])).length > 0;
}

/** Forms with responses waiting (at most `limit`). */
export async function queuedForms(db: Db, d: Dialect, limit: number): Promise<string[]> {
  const rows = await db.all<{ form_id: string }>(`SELECT DISTINCT form_id FROM ${queueTable(d)} LIMIT ${d.p(1)}`, [limit]);
  return rows.map((r) => r.form_id);
}

/**
 * Those of `ids` still waiting for the indexer, their queue rows locked until the transaction ends (PostgreSQL;
 * a row a running batch holds makes this wait for the batch, which then has counted it). Call in a transaction,
 * before changing the responses.
 */
export async function stillQueued(db: Db, d: Dialect, ids: readonly string[]): Promise<Set<string>> {
  const queued = new Set<string>();
  for (const batch of idBatches(ids)) {
    const params = new Params(d);
    const lock = d.kind === 'postgres' ? ' ORDER BY response_id FOR UPDATE' : '';
    const rows = await db.all<{ response_id: string }>(`SELECT response_id FROM ${queueTable(d)} WHERE response_id IN (${params.list(batch)})${lock}`, params.values);
    for (const r of rows) queued.add(r.response_id);
  }
  return queued;
}

/**
 * On PostgreSQL, the locks a batch of `formId` holds until its transaction ends; `formId` undefined: the lock of a
 * rebuild of every form, which waits for every batch and holds them off. Nothing on SQLite (one writer).
 */
export async function lockIndexing(db: Db, d: Dialect, formId?: string, exclusive = true): Promise<void> {
  if (d.kind !== 'postgres') return;
  if (formId === undefined) return void (await db.all(`SELECT pg_advisory_xact_lock(${ALL_LOCK}, 0) AS locked`));
  await db.all(
    `SELECT pg_advisory_xact_lock_shared(${ALL_LOCK}, 0) AS a, pg_advisory_xact_${exclusive ? '' : 'shared_'}lock(${FORM_LOCK}, hashtext($1)) AS b`,
    [formId],
  );
}

/** Empties the queue of one form or of all (a rebuild, which counts every response itself). */
export async function dropQueue(db: Db, d: Dialect, formId?: string): Promise<void> {
  await db.run(`DELETE FROM ${queueTable(d)}${formId === undefined ? '' : ` WHERE form_id = ${d.p(1)}`}`, formId === undefined ? [] : [formId]);
}

/**
 * Counts up to `limit` of the form's queued responses (every one when undefined) and deletes their queue rows.
 * Call in a transaction: the counters and the deletion commit together or not at all.
 * @returns how many queue rows were claimed: fewer than `limit` means the form's queue was empty after them (what
 * `catchUp` stops on, whatever the responses found for them).
 */
export async function indexQueued(db: Db, d: Dialect, formId: string, limit?: number): Promise<number> {
  await lockIndexing(db, d, formId);
  const q = queueTable(d);
  const claim =
    limit === undefined
      ? `DELETE FROM ${q} WHERE form_id = ${d.p(1)} RETURNING response_id`
      : `DELETE FROM ${q} WHERE response_id IN (SELECT response_id FROM ${q} WHERE form_id = ${d.p(1)} ORDER BY response_id LIMIT ${d.p(2)}` +
        `${d.kind === 'postgres' ? ' FOR UPDATE' : ''}) RETURNING response_id`;
  const claimed = await db.all<{ response_id: string }>(claim, limit === undefined ? [formId] : [formId, limit]);
  if (claimed.length === 0) return 0;
  const order = questionOrder(db, d, formId);
  order.catch(() => undefined);
  const responses = tableOf(d, ResponseEntity);
  for (let i = 0; i < claimed.length; i += INDEX_BATCH) {
    const rows: DayKey[] = [];
    for (const batch of idBatches(claimed.slice(i, i + INDEX_BATCH).map((c) => c.response_id))) {
      const params = new Params(d);
      const where = `${filterOnly(d, 'form_id')} = ${params.bind(formId)} AND id IN (${params.list(batch)})`;
      rows.push(...(await db.all<DayKey>(`SELECT id, submitted_at, completed_at, completion_seconds, answers, version FROM ${responses} WHERE ${where}`, params.values)));
    }
    await applyIndexes(db, d, formId, rows, [], order);
  }
  return claimed.length;
}

/** A queued response as the indexer reads it (response-days.ts's DayKey, with its id). */
type QueuedRow = DayKey & { id: string };
const ROW_COLUMNS = ['submitted_at', 'completed_at', 'completion_seconds', 'answers', 'version'] as const;
const sameRow = (a: QueuedRow, b: QueuedRow) => ROW_COLUMNS.every((c) => a[c] === b[c] || JSON.stringify(a[c]) === JSON.stringify(b[c]));

/**
 * Up to `limit` of the form's queued responses in id order, read outside any transaction (on SQLite by the read-only
 * connection, without waiting for the writer): what a background batch counts, computed before it writes.
 */
export async function queuedResponses(db: Db, d: Dialect, formId: string, limit: number): Promise<QueuedRow[]> {
  const r = tableOf(d, ResponseEntity);
  return db.all<QueuedRow>(
    `SELECT r.id, r.submitted_at, r.completed_at, r.completion_seconds, r.answers, r.version FROM ${queueTable(d)} q ` +
      `JOIN ${r} r ON r.id = q.response_id WHERE q.form_id = ${d.p(1)} ORDER BY q.response_id LIMIT ${d.p(2)}`,
    [formId, limit],
  );
}

/**
 * Counts `read` (a slice of `queuedResponses`, at most 500), whose deltas were computed from them before this
 * transaction (`indexDeltas`): claims their queue rows (those still there, locked in id order on PostgreSQL), reads
 * the claimed responses again and writes `deltas` when they are the responses read; when one changed or went
 * meanwhile (a completion, a delete, a read that caught up), computes the claimed ones' deltas as they now are.
 * Call in a transaction. @returns how many responses were counted.
 */
export async function indexRead(db: Db, d: Dialect, formId: string, read: QueuedRow[], deltas: IndexDeltas, order: QuestionOrder): Promise<number> {
  await lockIndexing(db, d, formId);
  const q = queueTable(d);
  const claim = new Params(d);
  const form = claim.bind(formId);
  const claimed = await db.all<{ response_id: string }>(
    `DELETE FROM ${q} WHERE response_id IN (SELECT response_id FROM ${q} WHERE ${filterOnly(d, 'form_id')} = ${form} AND response_id IN (${claim.list(read.map((r) => r.id))}) ` +
      `ORDER BY response_id${d.kind === 'postgres' ? ' FOR UPDATE' : ''}) RETURNING response_id`,
    claim.values,
  );
  if (claimed.length === 0) return 0;
  const params = new Params(d);
  const where = `${filterOnly(d, 'form_id')} = ${params.bind(formId)} AND id IN (${params.list(claimed.map((c) => c.response_id))})`;
  const now = await db.all<QueuedRow>(`SELECT id, submitted_at, completed_at, completion_seconds, answers, version FROM ${tableOf(d, ResponseEntity)} WHERE ${where}`, params.values);
  const before = new Map(read.map((r) => [r.id, r]));
  const unchanged = now.length === read.length && now.every((r) => before.has(r.id) && sameRow(r, before.get(r.id)!));
  await writeIndexes(db, d, formId, unchanged ? deltas : indexDeltas(formId, now, [], order));
  return now.length;
}

/**
 * What the responses one transaction inserted add, applied once just before it commits: per form (in id order, a
 * fixed lock order across transactions on PostgreSQL) their days, then one statement queuing them all for the
 * indexer. The rows stay in the transaction's own connection until then, so nothing outside it sees the difference.
 */
export class PendingRollups implements CommitTask {
  private readonly added = new Map<string, DayKey[]>();

  constructor(
    private readonly d: Dialect,
    private readonly db: Db,
    /** Tells the indexer how many responses were queued, once the transaction has committed. */
    private readonly queued: (count: number) => void,
  ) {}

  add(formId: string, row: DayKey & { id: string }): void {
    const rows = this.added.get(formId);
    if (rows) rows.push(row);
    else this.added.set(formId, [row]);
  }

  async flush(): Promise<void> {
    const queue: Array<[string, string]> = [];
    // Sent together: the connection runs them in this order, with no turn of the event loop between them.
    const writes: Promise<void>[] = [];
    for (const formId of [...this.added.keys()].sort()) {
      const rows = this.added.get(formId)!;
      writes.push(applyDays(this.db, this.d, formId, rows, []));
      for (const r of rows) queue.push([r.id!, formId]);
    }
    this.added.clear();
    if (queue.length === 0) return;
    writes.push(queueResponses(this.db, this.d, queue));
    await allSettledOrThrow(writes);
    this.queued(queue.length);
  }
}

/**
 * Indexes the form's queued responses before a read of the tables they feed: one seek when none waits, else
 * transactions of INDEX_BATCH until none is left (a running batch of another instance is waited for, then what it
 * left).
 */
export async function catchUp(db: Db, d: Dialect, atomic: <T>(work: (db: Db) => Promise<T>) => Promise<T>, formId: string): Promise<void> {
  if (!(await hasQueued(db, d, formId))) return;
  // INDEX_BATCH per transaction: a backlog of thousands (the background indexer waits while submissions commit)
  // never holds SQLite's one writer for all of it at once. Done when a claim finds fewer: the queue was empty then.
  while ((await atomic((tx) => indexQueued(tx, d, formId, INDEX_BATCH))) >= INDEX_BATCH);
}
