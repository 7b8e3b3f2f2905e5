import { at, makeAttempt, makeDelivery, makeForm, makeOutboxItem, makeResponse, rejectsWithConflict, type StorageTest, uid } from './fixtures';

/**
 * Writes a transaction sends together (the outbox worker settling a batch, a submission enqueueing a
 * delivery per webhook): an adapter may run them as one statement, but each call keeps its own outcome,
 * exactly as if it had run alone.
 */
export function batchedWriteTests(test: StorageTest): void {
  test('transactions: outbox items and deliveries inserted together each answer for themselves', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const kind = uid('kind');
    const taken = makeOutboxItem(kind);
    const takenDelivery = makeDelivery(form.id);
    await db.storage.outbox.enqueue(taken);
    await db.storage.deliveries.insert(takenDelivery);
    const items = [makeOutboxItem(kind), makeOutboxItem(kind, { payload: { n: 2 } }), makeOutboxItem(kind)];
    const deliveries = [makeDelivery(form.id), makeDelivery(form.id, { url: 'https://b.example.com/hook' })];
    const attempts = [makeAttempt(takenDelivery.id, 1), makeAttempt(takenDelivery.id, 2, { status_code: 500 })];
    await db.storage.transaction(async (tx) => {
      const outcomes = await Promise.allSettled([
        ...items.map((i) => tx.outbox.enqueue(i)),
        tx.outbox.enqueue(taken),
        ...deliveries.map((d) => tx.deliveries.insert(d)),
        tx.deliveries.insert(takenDelivery),
        ...attempts.map((a) => tx.deliveries.insertAttempt(a)),
      ]);
      t.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      await rejectsWithConflict(t, Promise.reject((outcomes[3] as PromiseRejectedResult).reason), 'the taken outbox id alone is refused');
      await rejectsWithConflict(t, Promise.reject((outcomes[6] as PromiseRejectedResult).reason), 'the taken delivery id alone is refused');
      // Visible to the transaction's next statements.
      t.deepEqual(await tx.outbox.findById(items[1]!.id), items[1]);
    });
    for (const i of items) t.deepEqual(await db.storage.outbox.findById(i.id), i);
    for (const d of deliveries) t.deepEqual(await db.storage.deliveries.findById(d.id), d);
    t.deepEqual(await db.storage.deliveries.listAttempts(takenDelivery.id), attempts);
  });

  test('transactions: outbox settlements and delivery updates sent together each answer for themselves', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const kind = uid('kind');
    const items = [0, 1, 2, 3].map(() => makeOutboxItem(kind, { next_attempt_at: at(1) }));
    for (const i of items) await db.storage.outbox.enqueue(i);
    await db.storage.outbox.claim({ workerId: 'w1', now: at(10), leaseUntil: at(100), limit: 3, kinds: [kind] });
    const leased = await Promise.all(items.map((i) => db.storage.outbox.findById(i.id)));
    const mine = leased.filter((i) => i?.locked_by === 'w1').map((i) => i!.id);
    const notMine = items.map((i) => i.id).find((id) => !mine.includes(id))!;
    t.is(mine.length, 3);
    const deliveries = [makeDelivery(form.id), makeDelivery(form.id), makeDelivery(form.id)];
    for (const d of deliveries) await db.storage.deliveries.insert(d);
    const patch = (n: number) => ({ status: 'delivered' as const, attempts: n, last_status_code: 200 + n, updated_at: at(50 + n) });

    const settled = await db.storage.transaction(async (tx) => {
      const [outcomes] = await Promise.all([
        Promise.all([
          tx.outbox.settle(mine[0]!, 'w1', { status: 'delivered' }, at(20)),
          tx.outbox.settle(mine[1]!, 'w1', { status: 'pending', nextAttemptAt: at(300), error: 'HTTP 503' }, at(21)),
          tx.outbox.settle(mine[2]!, 'w1', { status: 'failed', error: 'gave up' }, at(22)),
          tx.outbox.settle(notMine, 'w1', { status: 'delivered' }, at(23)),
          tx.outbox.settle(uid('obx'), 'w1', { status: 'delivered' }, at(24)),
        ]),
        ...deliveries.map((d, n) => tx.deliveries.update(d.id, patch(n))),
        tx.deliveries.update(uid('dlv'), patch(9)),
      ]);
      return outcomes;
    });
    t.deepEqual(settled, [true, true, true, false, false]);
    const [delivered, retried, failed, untouched] = await Promise.all([...mine, notMine].map((id) => db.storage.outbox.findById(id)));
    t.like(delivered, { status: 'delivered', locked_by: null, last_error: null, updated_at: at(20) });
    t.like(retried, { status: 'pending', next_attempt_at: at(300), last_error: 'HTTP 503', locked_by: null, updated_at: at(21) });
    t.like(failed, { status: 'failed', last_error: 'gave up', locked_by: null });
    t.like(untouched, { status: 'pending', locked_by: null, updated_at: items.find((i) => i.id === notMine)!.updated_at });
    for (const [n, d] of deliveries.entries()) t.deepEqual(await db.storage.deliveries.findById(d.id), { ...d, ...patch(n) });
  });

  test('outbox: an item handed back unrun does not count its lease as an attempt, alone or sent together', async (t, db) => {
    const kind = uid('kind');
    const items = [0, 1, 2, 3].map(() => makeOutboxItem(kind, { next_attempt_at: at(1) }));
    for (const i of items) await db.storage.outbox.enqueue(i);
    const claimed = await db.storage.outbox.claim({ workerId: 'w1', now: at(10), leaseUntil: at(100), limit: 4, kinds: [kind] });
    t.deepEqual(claimed.map((i) => i.attempts), [1, 1, 1, 1], 'each lease counts');
    const [alone, ran, ...together] = items.map((i) => i.id);
    t.true(await db.storage.outbox.settle(alone!, 'w1', { status: 'pending', nextAttemptAt: at(20), unrun: true }, at(11)));
    t.true(await db.storage.outbox.settle(ran!, 'w1', { status: 'pending', nextAttemptAt: at(20), error: 'HTTP 503' }, at(11)));
    const outcomes = await db.storage.transaction(async (tx) =>
      Promise.all([
        tx.outbox.settle(together[0]!, 'w1', { status: 'pending', nextAttemptAt: at(20), unrun: true }, at(12)),
        tx.outbox.settle(together[1]!, 'w1', { status: 'delivered' }, at(12)),
      ]),
    );
    t.deepEqual(outcomes, [true, true]);
    const after = await Promise.all(items.map((i) => db.storage.outbox.findById(i.id)));
    t.deepEqual(after.map((i) => i!.attempts), [0, 1, 0, 1], 'handed back unrun: 0; run: 1');
    t.like(after[0], { status: 'pending', next_attempt_at: at(20), locked_by: null });
    // Claimed again, the count goes on from the runs alone.
    const again = await db.storage.outbox.claim({ workerId: 'w2', now: at(30), leaseUntil: at(100), limit: 4, kinds: [kind] });
    t.deepEqual(Object.fromEntries(again.map((i) => [i.id, i.attempts])), { [alone!]: 1, [ran!]: 2, [together[0]!]: 1 });
  });

  test('transactions: responses and counts sent together (a group commit) each answer for themselves', async (t, db) => {
    const [a, b] = [makeForm(), makeForm()];
    await db.storage.forms.insert(a);
    await db.storage.forms.insert(b);
    const visitor = uid('vis');
    const first = makeResponse(a.id, 1, { visitor_id: visitor, unique_visitor: visitor });
    const sameVisitor = makeResponse(a.id, 2, { visitor_id: visitor, unique_visitor: visitor });
    const others = [makeResponse(a.id, 3), makeResponse(b.id, 4), makeResponse(a.id, 5)];
    const [outcomes, counts] = await db.storage.transaction(async (tx) =>
      Promise.all([
        Promise.allSettled([first, sameVisitor, ...others, first].map((r) => tx.responses.insert(r))),
        Promise.all([tx.forms.addResponseCount(a.id, 1), tx.forms.addResponseCount(b.id, 1), tx.forms.addResponseCount(a.id, 2), tx.forms.addResponseCount(uid('frm'), 1)]),
      ]),
    );
    t.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    await rejectsWithConflict(t, Promise.reject((outcomes[1] as PromiseRejectedResult).reason), 'the visitor\'s second response alone is refused');
    await rejectsWithConflict(t, Promise.reject((outcomes[5] as PromiseRejectedResult).reason), 'the taken id alone is refused');
    t.deepEqual(counts, [3, 1, 3, null], 'each count after every delta of its form; none for a missing form');
    for (const r of [first, ...others]) t.truthy(await db.storage.responses.findById(r.form_id, r.id));
    t.is(await db.storage.responses.findById(a.id, sameVisitor.id), null);
    t.is((await db.storage.forms.findById(a.id))!.response_count, a.response_count + 3);
  });
}
