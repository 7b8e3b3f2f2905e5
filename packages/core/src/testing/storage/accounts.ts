import {
  at,
  count,
  makeApiKey,
  makeUser,
  rejectsWithConflict,
  type StorageTest,
  truthy,
  uid,
} from './fixtures';

/** users, apiKeys, credits (one caller at a time), idempotency (one caller at a time). */
export function accountTests(test: StorageTest): void {
  test('users: insert then find by id, as written in the table', async (t, db) => {
    const user = makeUser({ last_name: 'Lovelace', plan: 'pro', email_verified: true });
    await db.storage.users.insert(user);
    t.deepEqual(await db.storage.users.findById(user.id), user);
    const [row] = await db.probes.users({ id: user.id });
    t.is(row.email, user.email);
    t.is(row.plan, 'pro');
    t.true(truthy(row.email_verified));
    t.is(await db.storage.users.findById(uid('usr')), null);
  });

  test('users: an email taken in any case is a CONFLICT, and nothing is written', async (t, db) => {
    const user = makeUser({ email: `${uid('Mixed')}@Example.COM` });
    await db.storage.users.insert(user);
    const other = makeUser({ email: user.email.toUpperCase() });
    await rejectsWithConflict(t, db.storage.users.insert(other), 'same email, other case');
    await rejectsWithConflict(t, db.storage.users.insert(makeUser({ id: user.id })), 'same id');
    t.is(await count(db.probes.users({ id: other.id })), 0);
  });

  test('users: findByEmail compares lower-case', async (t, db) => {
    const user = makeUser({ email: `${uid('Grace')}@Example.ORG` });
    await db.storage.users.insert(user);
    t.deepEqual(await db.storage.users.findByEmail(user.email.toLowerCase()), user);
    t.deepEqual(await db.storage.users.findByEmail(user.email.toUpperCase()), user);
    t.is(await db.storage.users.findByEmail(`${uid('nobody')}@example.org`), null);
  });

  test('users: update applies the patch and returns the user', async (t, db) => {
    const user = makeUser();
    await db.storage.users.insert(user);
    const updated = await db.storage.users.update(user.id, {
      first_name: 'Grace',
      email_verified: true,
      plan: 'business',
      updated_at: at(60),
    });
    t.deepEqual(updated, { ...user, first_name: 'Grace', email_verified: true, plan: 'business', updated_at: at(60) });
    const [row] = await db.probes.users({ id: user.id });
    t.is(row.first_name, 'Grace');
    t.true(truthy(row.email_verified));
    t.deepEqual(await db.storage.users.update(user.id, {}), updated);
    t.is(await db.storage.users.update(uid('usr'), { first_name: 'X' }), null);

    const taken = makeUser();
    await db.storage.users.insert(taken);
    await rejectsWithConflict(t, db.storage.users.update(user.id, { email: taken.email.toUpperCase() }), 'email taken');
    const moved = await db.storage.users.update(user.id, { email: `${uid('New')}@Example.com` });
    t.deepEqual(await db.storage.users.findByEmail(moved!.email.toLowerCase()), moved);
  });

  test('apiKeys: insert, find, revoke once', async (t, db) => {
    const key = makeApiKey(uid('usr'), { monthly_limit: 500, scope: 'voice', expires_at: at(3600), made_by: 'operator' });
    await db.storage.apiKeys.insert(key);
    t.deepEqual(await db.storage.apiKeys.findById(key.id), key);
    const owners = makeApiKey(key.user_id, { made_by: 'owner' });
    await db.storage.apiKeys.insert(owners);
    t.is((await db.storage.apiKeys.findById(owners.id))!.made_by, 'owner', 'who made each key reads back');
    await rejectsWithConflict(t, db.storage.apiKeys.insert(key), 'same id');

    t.true(await db.storage.apiKeys.revoke(key.id, at(10)));
    t.false(await db.storage.apiKeys.revoke(key.id, at(20)));
    t.false(await db.storage.apiKeys.revoke(uid('key'), at(20)));
    t.deepEqual(await db.storage.apiKeys.findById(key.id), { ...key, revoked_at: at(10) });
    const [row] = await db.probes.apiKeys({ id: key.id });
    t.is(row.revoked_at, at(10));
    t.is(await db.storage.apiKeys.findById(uid('key')), null);
  });

  test('users: list pages oldest first, ties by id, with the total', async (t, db) => {
    // Older than any other test's users (they run concurrently on the same database): these come first.
    const old = (s: number) => new Date(Date.UTC(1990, 0, 1, 0, 0, s)).toISOString();
    const [a, b, c] = [makeUser({ created_at: old(1) }), makeUser({ created_at: old(1) }), makeUser({ created_at: old(2) })];
    for (const u of [c, b, a]) await db.storage.users.insert(u);
    const tied = [a, b].sort((x, y) => (x.id < y.id ? -1 : 1));
    const first = await db.storage.users.list({ offset: 0, limit: 2 });
    t.deepEqual(first.items, tied);
    t.true(first.total >= 3);
    const next = await db.storage.users.list({ offset: 2, limit: 1 });
    t.deepEqual(next.items, [c]);
  });

  test('apiKeys: listByUser gives the keys of one user, revoked too, oldest first', async (t, db) => {
    const userId = uid('usr');
    const late = makeApiKey(userId, { created_at: at(30) });
    const early = makeApiKey(userId, { created_at: at(10), scope: 'voice', monthly_limit: 7 });
    const middle = makeApiKey(userId, { created_at: at(20) });
    for (const k of [late, early, middle, makeApiKey(uid('usr'))]) await db.storage.apiKeys.insert(k);
    await db.storage.apiKeys.revoke(middle.id, at(40));
    t.deepEqual(await db.storage.apiKeys.listByUser(userId), [early, { ...middle, revoked_at: at(40) }, late]);
    t.deepEqual(await db.storage.apiKeys.listByUser(uid('usr')), []);
  });

  test('credits: balance, add, spend within the balance only', async (t, db) => {
    const credits = db.storage.credits;
    const user = uid('usr');
    t.is(await credits.balance(user), 0);
    t.is(await credits.spend(user, 1), null);
    t.is(await credits.add(user, 10), 10);
    t.is(await credits.add(user, 5), 15);
    t.is(await credits.spend(user, 4), 11);
    t.is(await credits.spend(user, 12), null);
    t.is(await credits.balance(user), 11);
    t.is(await credits.spend(user, 11), 0);
    const [row] = await db.probes.creditBalances({ user_id: user });
    t.is(Number(row.balance), 0);
  });

  test('credits: concurrent first purchases add up', async (t, db) => {
    const user = uid('usr');
    await Promise.all(Array.from({ length: 30 }, () => db.storage.credits.add(user, 2)));
    t.is(await db.storage.credits.balance(user), 60);
  });

  test('idempotency: claim, complete, release, and take over an expired key', async (t, db) => {
    const idem = db.storage.idempotency;
    const key = uid('idem');
    const record = { key, owner: 'owner-a', created_at: at(0), expires_at: at(100) };
    t.is(await idem.find(key), null);
    t.true(await idem.claim(record, at(0)));
    t.deepEqual(await idem.find(key), { ...record, status: 'in_progress', result: null });
    t.false(await idem.claim({ ...record, owner: 'owner-b' }, at(50)));

    await idem.complete(key, { status: 201, body: { id: 'rsp_1' } });
    t.deepEqual(await idem.find(key), { ...record, status: 'done', result: { status: 201, body: { id: 'rsp_1' } } });
    const [row] = await db.probes.idempotencyKeys({ key });
    t.is(row.status, 'done');
    t.false(await idem.claim(record, at(99)));

    const renewed = { key, owner: 'owner-c', created_at: at(100), expires_at: at(200) };
    t.true(await idem.claim(renewed, at(100)), 'an expired record is replaced');
    t.deepEqual(await idem.find(key), { ...renewed, status: 'in_progress', result: null });

    await idem.release(key);
    t.is(await idem.find(key), null);
    t.true(await idem.claim(record, at(150)), 'a released key can be claimed again');
  });

  test('idempotency: purgeExpired deletes expired records in batches of at most limit, and no other', async (t, db) => {
    const idem = db.storage.idempotency;
    // Times long before any other test's records, so the count is this test's alone on a shared database.
    const day = (d: number, s = 0) => new Date(Date.UTC(1990, 0, d, 0, 0, s)).toISOString();
    const before = day(2);
    const expired = Array.from({ length: 5 }, (_, i) => ({ key: uid('idem'), owner: 'o', created_at: day(1), expires_at: i === 4 ? before : day(1, i) }));
    const kept = { key: uid('idem'), owner: 'o', created_at: day(1), expires_at: day(2, 1) };
    for (const r of [...expired, kept]) t.true(await idem.claim(r, day(1)));
    await idem.complete(expired[0]!.key, { response_id: 'rsp_1' });
    t.is(await idem.purgeExpired({ before, limit: 0 }), 0);
    t.deepEqual([await idem.purgeExpired({ before, limit: 2 }), await idem.purgeExpired({ before, limit: 2 }), await idem.purgeExpired({ before, limit: 2 })], [2, 2, 1]);
    t.is(await idem.purgeExpired({ before, limit: 2 }), 0);
    for (const r of expired) t.is(await idem.find(r.key), null, 'done or in progress, expired at or before `before`');
    t.like(await idem.find(kept.key), { key: kept.key, status: 'in_progress' });
    t.is(await count(db.probes.idempotencyKeys({ key: kept.key })), 1);
  });
}
