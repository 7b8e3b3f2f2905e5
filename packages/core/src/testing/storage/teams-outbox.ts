import {
  at,
  count,
  makeMember,
  makeOutboxItem,
  makeTeam,
  rejectsWithConflict,
  type StorageTest,
  uid,
} from './fixtures';

/** teams and members; outbox with one worker at a time. */
export function teamAndOutboxTests(test: StorageTest): void {
  test('teams: insert, members, memberships of a user', async (t, db) => {
    const user = uid('usr');
    const [a, b] = [makeTeam({ owner_id: user }), makeTeam()];
    await db.storage.teams.insert(a);
    await db.storage.teams.insert(b);
    t.deepEqual(await db.storage.teams.findById(a.id), a);
    t.is(await db.storage.teams.findById(uid('team')), null);
    await rejectsWithConflict(t, db.storage.teams.insert(a), 'same id');

    const ma = makeMember(a.id, user, { role: 'owner', joined_at: at(1) });
    const mb = makeMember(b.id, user, { role: 'viewer', joined_at: at(2) });
    const someoneElse = makeMember(a.id, uid('usr'));
    for (const m of [mb, ma, someoneElse]) await db.storage.teams.insertMember(m);
    t.deepEqual(await db.storage.teams.membershipsOf(user), [ma, mb]);
    t.deepEqual(await db.storage.teams.findMember(a.id, user), ma);
    t.is(await db.storage.teams.findMember(a.id, uid('usr')), null);
    t.deepEqual(await db.storage.teams.membershipsOf(uid('usr')), []);
    await rejectsWithConflict(t, db.storage.teams.insertMember(makeMember(a.id, user)), 'already a member');
    t.is(await count(db.probes.teamMembers({ team_id: a.id })), 2);
  });

  test('outbox: enqueue, claim due items of the asked kinds, lease, settle', async (t, db) => {
    const outbox = db.storage.outbox;
    const kind = uid('kind');
    const otherKind = uid('kind');
    const due = makeOutboxItem(kind, { next_attempt_at: at(10), payload: { to: 'a@example.com', tags: ['x'] } });
    const later = makeOutboxItem(kind, { next_attempt_at: at(100) });
    const other = makeOutboxItem(otherKind, { next_attempt_at: at(5) });
    for (const item of [due, later, other]) await outbox.enqueue(item);
    t.deepEqual(await outbox.findById(due.id), due);
    await rejectsWithConflict(t, outbox.enqueue(due), 'same id');
    t.is(await outbox.findById(uid('obx')), null);

    const claimed = await outbox.claim({ workerId: 'w1', now: at(20), leaseUntil: at(80), limit: 10, kinds: [kind] });
    t.deepEqual(claimed.map((i) => i.id), [due.id]);
    t.is(claimed[0].locked_by, 'w1');
    t.is(claimed[0].locked_until, at(80));
    t.deepEqual(claimed[0].payload, due.payload);
    t.deepEqual(await outbox.claim({ workerId: 'w2', now: at(30), leaseUntil: at(90), limit: 10, kinds: [kind] }), []);
    t.deepEqual(await outbox.claim({ workerId: 'w2', now: at(30), leaseUntil: at(90), limit: 10, kinds: [] }), []);

    t.false(await outbox.settle(due.id, 'w2', { status: 'delivered' }, at(40)), 'not leased to w2');
    t.true(await outbox.settle(due.id, 'w1', { status: 'pending', nextAttemptAt: at(200), error: 'HTTP 500' }, at(40)));
    const retried = await outbox.findById(due.id);
    t.is(retried?.status, 'pending');
    t.is(retried?.next_attempt_at, at(200));
    t.is(retried?.locked_by, null);
    t.is(retried?.last_error, 'HTTP 500');

    const second = await outbox.claim({ workerId: 'w2', now: at(150), leaseUntil: at(250), limit: 10, kinds: [kind] });
    t.deepEqual(second.map((i) => i.id), [later.id], 'the retried item waits for its new due time');
    const third = await outbox.claim({ workerId: 'w3', now: at(300), leaseUntil: at(400), limit: 10, kinds: [kind] });
    t.deepEqual(third.map((i) => i.id).sort(), [due.id, later.id].sort(), 'an expired lease frees the item');

    t.true(await outbox.settle(due.id, 'w3', { status: 'delivered' }, at(310)));
    t.false(await outbox.settle(due.id, 'w3', { status: 'delivered' }, at(311)), 'already settled');
    t.true(await outbox.settle(later.id, 'w3', { status: 'failed', error: 'gave up' }, at(320)));
    const [row] = await db.probes.outbox({ id: later.id });
    t.deepEqual({ status: row.status, last_error: row.last_error }, { status: 'failed', last_error: 'gave up' });
    t.is((await outbox.findById(due.id))?.status, 'delivered');
    t.deepEqual(await outbox.claim({ workerId: 'w4', now: at(999), leaseUntil: at(1999), limit: 10, kinds: [kind] }), []);
    t.is((await outbox.claim({ workerId: 'w4', now: at(999), leaseUntil: at(1999), limit: 10, kinds: [otherKind] })).length, 1);
  });

  test('outbox: claim takes the earliest due items up to the limit', async (t, db) => {
    const kind = uid('kind');
    const items = [5, 1, 4, 2, 3].map((s) => makeOutboxItem(kind, { next_attempt_at: at(s) }));
    for (const item of items) await db.storage.outbox.enqueue(item);
    const claimed = await db.storage.outbox.claim({ workerId: 'w', now: at(10), leaseUntil: at(60), limit: 3, kinds: [kind] });
    t.deepEqual(claimed.map((i) => i.next_attempt_at).sort(), [at(1), at(2), at(3)]);
  });

  test('outbox: the payload of a settled item can be cleared; pending ones keep theirs', async (t, db) => {
    const outbox = db.storage.outbox;
    const kind = uid('kind');
    const sent = makeOutboxItem(kind, { payload: { to: 'a@example.com', text: 'secret-token-1' } });
    const waiting = makeOutboxItem(kind, { payload: { to: 'b@example.com', text: 'secret-token-2' } });
    for (const item of [sent, waiting]) await outbox.enqueue(item);
    await outbox.claim({ workerId: 'w', now: at(10), leaseUntil: at(60), limit: 10, kinds: [kind] });
    t.true(await outbox.settle(sent.id, 'w', { status: 'delivered' }, at(20)));
    await outbox.clearPayload(sent.id);
    await outbox.clearPayload(waiting.id);
    t.deepEqual((await outbox.findById(sent.id))?.payload, {});
    t.deepEqual((await outbox.findById(waiting.id))?.payload, waiting.payload, 'still to be sent');
    const rows = await db.probes.outbox({ kind });
    const text = (payload: unknown) => (typeof payload === 'string' ? payload : JSON.stringify(payload));
    t.is(rows.filter((r) => text(r.payload).includes('secret-token-1')).length, 0);
  });

  test('outbox: purge deletes delivered and failed items settled before the cut-off, never pending ones', async (t, db) => {
    const outbox = db.storage.outbox;
    const kind = uid('kind');
    const items = Array.from({ length: 5 }, () => makeOutboxItem(kind));
    for (const item of items) await outbox.enqueue(item);
    await outbox.claim({ workerId: 'w', now: at(10), leaseUntil: at(60), limit: 10, kinds: [kind] });
    const [oldSent, oldFailed, newSent, retried, untouched] = items as [typeof items[0], typeof items[0], typeof items[0], typeof items[0], typeof items[0]];
    await outbox.settle(oldSent.id, 'w', { status: 'delivered' }, at(100));
    await outbox.settle(oldFailed.id, 'w', { status: 'failed', error: 'gave up' }, at(110));
    await outbox.settle(newSent.id, 'w', { status: 'delivered' }, at(500));
    await outbox.settle(retried.id, 'w', { status: 'pending', nextAttemptAt: at(900), error: 'HTTP 500' }, at(120));
    void untouched;
    t.is(await outbox.purge({ before: at(200), limit: 100, kinds: [uid('kind')] }), 0, 'other kinds only');
    t.is(await outbox.purge({ before: at(200), limit: 1, kinds: [kind] }), 1, 'at most limit');
    t.is(await outbox.purge({ before: at(200), limit: 100, kinds: [kind] }), 1);
    const left = await db.probes.outbox({ kind });
    t.deepEqual(left.map((r) => r.id).sort(), [newSent.id, retried.id, untouched.id].sort());
    t.is(await outbox.purge({ before: at(200), limit: 0, kinds: [kind] }), 0);
  });
}
