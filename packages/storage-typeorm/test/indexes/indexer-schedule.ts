import test from 'ava';
import { insertResponses, waitFor } from '@formloom/core/testing';
import { createTestDatabase, type TestDatabaseKind } from '../../src/testing';
import { equalsRecount, queued, survey } from './response-indexer';

/*
 * When the background indexer counts (repositories/background-indexer.ts; docs/decisions.md, "The analytics
 * indexer"): once no commit has queued responses for `quietMs`, or, while commits keep coming, once the backlog
 * has passed its bound (`maxBacklog` responses or `maxDelayMs`). Reads count what is queued whatever the schedule.
 * No assertion here is about time: each waits, with a generous deadline, for the queue to empty.
 */

const HOUR = 3_600_000;
const empty = (db: Parameters<typeof queued>[0], formId: string) => waitFor(async () => (await queued(db, formId)) === 0, { timeoutMs: 60_000 });

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: responses queued by commits are counted once no commit has queued any for a while`, async (t) => {
    const db = await createTestDatabase(kind, { indexer: { debounceMs: 0, intervalMs: HOUR, quietMs: 100, maxDelayMs: HOUR, maxBacklog: 1e9 } });
    t.teardown(() => db.close());
    const { form, response } = await survey(db.storage);
    // Group commits of five, one after another.
    for (let i = 0; i < 40; i += 5) await insertResponses(db.storage, [0, 1, 2, 3, 4].map((j) => response(i + j)));
    await empty(db, form.id);
    await equalsRecount(t, db, form.id, 'counted when the writer was idle');
  });

  test(`${kind}: under a stream of commits that never pauses, the backlog is counted down once it reaches its size bound`, async (t) => {
    // The writer never counts as idle (an hour of quiet needed), and no response is ever too old: only the size bound.
    const db = await createTestDatabase(kind, { indexer: { debounceMs: 0, intervalMs: 50, quietMs: HOUR, maxDelayMs: HOUR, maxBacklog: 30 } });
    t.teardown(() => db.close());
    const { form, response } = await survey(db.storage);
    for (let i = 0; i < 30; i += 3) await insertResponses(db.storage, [0, 1, 2].map((j) => response(i + j)));
    // Down to half the bound at least (a slice may count more).
    await waitFor(async () => (await queued(db, form.id)) <= 15, { timeoutMs: 60_000 });
    await equalsRecount(t, db, form.id, 'counted at the size bound');
  });

  test(`${kind}: under a stream of commits that never pauses, a backlog is counted once it reaches its age bound`, async (t) => {
    const db = await createTestDatabase(kind, { indexer: { debounceMs: 0, intervalMs: 50, quietMs: HOUR, maxDelayMs: 200, maxBacklog: 1e9 } });
    t.teardown(() => db.close());
    const { form, response } = await survey(db.storage);
    for (let i = 0; i < 6; i++) await db.storage.responses.insert(response(i));
    await empty(db, form.id);
    await equalsRecount(t, db, form.id, 'counted at the age bound');
  });

  test(`${kind}: a read counts a backlog of more than one batch (several transactions), every response once`, async (t) => {
    t.timeout(120_000);
    const db = await createTestDatabase(kind, { indexer: { debounceMs: HOUR, intervalMs: HOUR } });
    t.teardown(() => db.close());
    const { form, q, response } = await survey(db.storage);
    for (let i = 0; i < 1_100; i += 100) {
      await db.storage.transaction(async (tx) => void (await Promise.all(Array.from({ length: 100 }, (_, j) => tx.responses.insert(response(i + j))))));
    }
    t.is(await queued(db, form.id), 1_100);
    const values = await db.storage.responses.questionValues(form.id);
    t.is(await queued(db, form.id), 0, 'the read emptied the queue');
    t.is(values.filter((v) => v.question_id === q.city.id).reduce((n, v) => n + v.count, 0), 1_100, 'every response counted once');
    await equalsRecount(t, db, form.id, 'after the read');
  });
}
