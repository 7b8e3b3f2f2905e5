import test from 'ava';
import { at, makeForm, makeResponse, waitFor } from '@formloom/core/testing';
import { IDLE_INDEXER, lockWaits, waitingLocks } from '../helpers/pg-locks';
import { createTestDatabase, type TestDatabase } from '../../src/testing';
import { withClient } from '../../src/testing-templates';

/*
 * The lock order of the responses and their queue on PostgreSQL (docs/decisions.md, "Lock order of the responses
 * and their queue"): a second connection plays the other side of each cycle that deadlocked (40P01) in the
 * conformance suite, statement by statement, and the storage's side is asserted to wait where it no longer closes
 * a cycle. Deterministic: each step waits for the lock it needs to see, never for time.
 */

async function queuedPartial(db: TestDatabase) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  // A read first: the indexer's one pass at start (nothing queued yet) is over before the response is queued.
  await db.storage.responses.analytics(form.id);
  const partial = makeResponse(form.id, 60, { completed_at: null, completion_seconds: null, resume_token_hash: 'ef'.repeat(32) });
  await db.storage.responses.insert(partial);
  return { form, partial };
}


test('postgres: rebuildAnalytics waits for a change that holds its response and queue rows before it empties the queue', async (t) => {
  const db = await createTestDatabase('postgres', { indexer: IDLE_INDEXER });
  t.teardown(() => db.close());
  const { form, partial } = await queuedPartial(db);
  await withClient(db.url, async (change) => {
    // A completion's statements up to its write (responses.ts, updatePartial): the response row, then its queue row.
    await change.query('BEGIN');
    await change.query('SELECT id FROM responses WHERE id = $1 FOR NO KEY UPDATE', [partial.id]);
    const queued = await change.query('SELECT response_id FROM response_index_queue WHERE response_id = $1 FOR UPDATE', [partial.id]);
    t.is(queued.rows.length, 1, 'the response is still queued');
    const rebuilt = db.storage.responses.rebuildAnalytics();
    // Under SHARE mode the rebuild got the table and waited for the queue row (a transaction id), and the change's
    // UPDATE below then waited for the rebuild: a deadlock. It now waits for the table itself.
    const locks = await lockWaits(change, 'the rebuild waiting for a lock');
    t.deepEqual(locks, ['relation:responses'], 'the rebuild waits for the responses table, before touching any row');
    await change.query('UPDATE responses SET completed_at = $2, completion_seconds = 9 WHERE id = $1', [partial.id, at(120)]);
    await change.query('COMMIT');
    await rebuilt;
  });
  const a = await db.storage.responses.analytics(form.id);
  t.deepEqual([a.total, a.completed], [1, 1], 'the rebuild counted the response as the change left it');
});

test('postgres: a completion waiting for a queue row a batch claimed lets the batch check its answers foreign key', async (t) => {
  const db = await createTestDatabase('postgres', { indexer: IDLE_INDEXER });
  t.teardown(() => db.close());
  const { form, partial } = await queuedPartial(db);
  await withClient(db.url, async (batch) => {
    // An indexer slice's claim (response-indexer.ts, indexRead): its queue rows, deleted in its transaction.
    await batch.query('BEGIN');
    const claimed = await batch.query('DELETE FROM response_index_queue WHERE response_id = $1 RETURNING response_id', [partial.id]);
    t.is(claimed.rows.length, 1, 'the batch claimed the response');
    const completed = db.storage.responses.updatePartial(form.id, partial.id, {
      answers: partial.answers, completed_at: at(120), completion_seconds: 9, quiz_results: null, unique_visitor: null, submitted_at: at(120),
    });
    await waitFor(async () => (await waitingLocks(batch)).length > 0 || null, { what: 'the completion waiting for the claimed queue row' });
    // What the batch's answers index insert takes on the response (its foreign key check). The completion held
    // the response FOR UPDATE, which blocks it: the batch then waited for the completion, which waited for the batch.
    await t.notThrowsAsync(batch.query('SELECT 1 FROM responses WHERE id = $1 FOR KEY SHARE NOWAIT', [partial.id]), 'the foreign key check does not wait for the completion');
    // The batch gives up its claim: the completion then finds the response queued and leaves its counting to the indexer.
    await batch.query('ROLLBACK');
    t.true(await completed);
  });
  await db.indexer.drain();
  const a = await db.storage.responses.analytics(form.id);
  t.deepEqual([a.total, a.completed], [1, 1]);
});
