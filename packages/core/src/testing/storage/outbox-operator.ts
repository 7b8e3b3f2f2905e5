import { at, makeOutboxItem, type StorageTest, uid } from './fixtures';

/** What an operator does with stuck outbox items (`formloom outbox list | retry | drop`, docs/cli.md). */
export function outboxOperatorTests(test: StorageTest): void {
  test('outbox: stuck items are listed, requeued and dropped, never while a worker holds one', async (t, db) => {
    const outbox = db.storage.outbox;
    const kind = uid('kind');
    const [failed, retrying, fresh, sent, held] = Array.from({ length: 5 }, (_, i) => makeOutboxItem(kind, { next_attempt_at: at(i) }));
    for (const item of [failed!, retrying!, fresh!, sent!, held!]) await outbox.enqueue(item);
    await outbox.claim({ workerId: 'w', now: at(10), leaseUntil: at(60), limit: 10, kinds: [kind] });
    await outbox.settle(failed!.id, 'w', { status: 'failed', error: 'gave up' }, at(20));
    await outbox.settle(retrying!.id, 'w', { status: 'pending', nextAttemptAt: at(500), error: 'HTTP 503' }, at(20));
    await outbox.settle(fresh!.id, 'w', { status: 'pending', nextAttemptAt: at(30) }, at(20));
    await outbox.settle(sent!.id, 'w', { status: 'delivered' }, at(20));
    // `held` stays leased to w until at(60).

    const stuck = await outbox.listStuck({ limit: 10, kinds: [kind] });
    t.deepEqual(stuck.map((i) => i.id), [failed!.id, retrying!.id], 'failed, and pending after a failure; earliest due first');
    t.is(stuck[0]!.last_error, 'gave up');
    t.deepEqual(await outbox.listStuck({ limit: 1, kinds: [kind] }).then((l) => l.map((i) => i.id)), [failed!.id]);
    t.deepEqual(await outbox.listStuck({ limit: 10, kinds: [] }), []);

    t.true(await outbox.requeue(failed!.id, at(100)));
    t.like(await outbox.findById(failed!.id), { status: 'pending', next_attempt_at: at(100), attempts: 1, locked_by: null });
    t.false(await outbox.requeue(sent!.id, at(100)), 'a delivered item stays delivered');
    t.false(await outbox.requeue(held!.id, at(40)), 'not while its lease runs');
    t.false(await outbox.requeue(uid('obx'), at(100)));
    const claimed = await outbox.claim({ workerId: 'w2', now: at(100), leaseUntil: at(160), limit: 10, kinds: [kind] });
    t.true(claimed.some((i) => i.id === failed!.id), 'a requeued item is claimed again');

    t.false(await outbox.drop(failed!.id, at(120)), 'held by w2 now');
    t.true(await outbox.drop(retrying!.id, at(200)));
    t.is(await outbox.findById(retrying!.id), null);
    t.false(await outbox.drop(sent!.id, at(200)), 'delivered items are kept for the log');
    t.false(await outbox.drop(retrying!.id, at(200)), 'already gone');
  });
}
