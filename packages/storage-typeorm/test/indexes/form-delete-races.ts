import test from 'ava';
import { makeForm, makeResponse } from '@formloom/core/testing';
import { IDLE_INDEXER, lockWaits } from '../helpers/pg-locks';
import { createTestDatabase, type TestDatabase } from '../../src/testing';
import { type PgClient, withClient } from '../../src/testing-templates';
import { dialectOf } from '../../src/sql/dialect';
import type { Db } from '../../src/sql/db';
import { lockIndexing } from '../../src/repositories/response-indexer';
import { ROW_LOCK } from '../../src/repositories/response-locks';

/*
 * A form's delete against the writers of its rows on PostgreSQL (docs/decisions.md, "Lock order of a form's
 * delete"). The delete locks the form row, then its rows by cascade; a writer that locked one of those rows and
 * then inserts another row of the form (whose foreign key check takes the form row FOR KEY SHARE) closed a
 * cycle (40P01). A second connection plays the writer statement by statement; the storage's delete is asserted
 * to wait where it no longer closes one. Deterministic: each step waits for the lock it needs to see.
 */


async function formWithQueuedResponse(db: TestDatabase, over: Parameters<typeof makeResponse>[2] = {}) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  // A read first: the indexer's one pass at start (nothing queued yet) is over before the response is queued.
  await db.storage.responses.analytics(form.id);
  const response = makeResponse(form.id, 60, over);
  await db.storage.responses.insert(response);
  return { form, response };
}


/** The test connection as a `Db`, to take the indexer's own locks with its own function. */
const clientDb = (client: PgClient): Db =>
  ({ all: async (sql: string, params?: readonly unknown[]) => (await client.query(sql, params as unknown[])).rows }) as unknown as Db;

test('postgres: a form delete waits for the indexer batch of the form before it locks the form row', async (t) => {
  const db = await createTestDatabase('postgres', { indexer: IDLE_INDEXER });
  t.teardown(() => db.close());
  const { form, response } = await formWithQueuedResponse(db);
  await withClient(db.url, async (batch) => {
    // An indexer slice's statements (response-indexer.ts, indexRead): its form's locks, then its queue rows.
    await batch.query('BEGIN');
    await lockIndexing(clientDb(batch), dialectOf(db.dataSource), form.id);
    const claimed = await batch.query('DELETE FROM response_index_queue WHERE response_id = $1 RETURNING response_id', [response.id]);
    t.is(claimed.rows.length, 1, 'the batch claimed the response');
    const deleted = db.storage.transaction((tx) => tx.forms.delete(form.id));
    t.deepEqual(await lockWaits(batch, 'the delete waiting for a lock'), ['advisory:'], "the delete waits for the batch's form lock, before touching any row");
    // What the batch's first new day, value or pair row of the form takes (its foreign key check). The delete
    // held the form row FOR UPDATE, which blocks it, while it waited for the batch's queue row: a deadlock.
    await t.notThrowsAsync(batch.query('SELECT 1 FROM forms WHERE id = $1 FOR KEY SHARE NOWAIT', [form.id]), "the batch's foreign key check does not wait for the delete");
    await batch.query('COMMIT');
    t.true(await deleted);
  });
  t.is(await db.storage.forms.findById(form.id), null);
});

test('postgres: a form delete waits for a completion that holds its response before it locks the form row', async (t) => {
  const db = await createTestDatabase('postgres', { indexer: IDLE_INDEXER });
  t.teardown(() => db.close());
  const { form, response } = await formWithQueuedResponse(db, { completed_at: null, completion_seconds: null, resume_token_hash: 'ef'.repeat(32) });
  await withClient(db.url, async (completion) => {
    // A completion's first statement (responses.ts, updatePartial): its response row.
    await completion.query('BEGIN');
    await completion.query(`SELECT id FROM responses WHERE id = $1 ${ROW_LOCK}`, [response.id]);
    const deleted = db.storage.transaction((tx) => tx.forms.delete(form.id));
    t.deepEqual(await lockWaits(completion, 'the delete waiting for a lock'), ['transactionid:'], "the delete waits for the completion's response");
    // What the completion writes next: the form's day rows (ON CONFLICT DO UPDATE locks the one it finds) and
    // rows whose foreign key check takes the form row. The delete held the form row FOR UPDATE and had deleted
    // those rows by cascade while it waited for the response: the completion then waited for it, a deadlock.
    await t.notThrowsAsync(completion.query('SELECT form_id FROM response_days WHERE form_id = $1 FOR UPDATE NOWAIT', [form.id]), "the completion's day rows are not the delete's");
    await t.notThrowsAsync(completion.query('SELECT 1 FROM forms WHERE id = $1 FOR KEY SHARE NOWAIT', [form.id]), "the completion's foreign key checks do not wait for the delete");
    await completion.query('UPDATE responses SET completed_at = submitted_at, completion_seconds = 9 WHERE id = $1', [response.id]);
    await completion.query('COMMIT');
    t.true(await deleted);
  });
  t.is(await db.storage.forms.findById(form.id), null);
});
