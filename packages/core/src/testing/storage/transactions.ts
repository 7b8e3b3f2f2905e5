import { at, count, makeForm, makeOutboxItem, makeUser, type StorageTest, uid } from './fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** transaction(): commit, rollback, nesting, isolation from calls outside it, and concurrent callers. */
export function transactionTests(test: StorageTest): void {
  test('transaction: commits when the callback resolves', async (t, db) => {
    const user = makeUser();
    const form = makeForm({ owner_id: user.id });
    const result = await db.storage.transaction(async (tx) => {
      await tx.users.insert(user);
      await tx.forms.insert(form);
      await tx.credits.add(user.id, 7);
      t.deepEqual(await tx.users.findById(user.id), user, 'a transaction reads its own writes');
      return 'done';
    });
    t.is(result, 'done');
    t.is(await count(db.probes.users({ id: user.id })), 1);
    t.is(await count(db.probes.forms({ id: form.id })), 1);
    t.is(await db.storage.credits.balance(user.id), 7);
  });

  test('transaction: rolls back everything when the callback throws', async (t, db) => {
    const user = makeUser();
    const form = makeForm({ owner_id: user.id });
    const boom = new Error('boom');
    const err = await t.throwsAsync(
      db.storage.transaction(async (tx) => {
        await tx.users.insert(user);
        await tx.forms.insert(form);
        await tx.questions.replaceForForm(form.id, []);
        await tx.credits.add(user.id, 7);
        throw boom;
      }),
    );
    t.is(err, boom, 'the callback error is rethrown as is');
    t.is(await count(db.probes.users({ id: user.id })), 0);
    t.is(await count(db.probes.forms({ id: form.id })), 0);
    t.is(await count(db.probes.creditBalances({ user_id: user.id })), 0);
  });

  test('transaction: a nested transaction joins the outer one', async (t, db) => {
    const committed = makeUser();
    const rolledBack = makeUser();
    await db.storage.transaction(async (tx) => {
      await tx.transaction(async (inner) => inner.users.insert(committed));
    });
    await t.throwsAsync(
      db.storage.transaction(async (tx) => {
        await tx.transaction(async (inner) => inner.users.insert(rolledBack));
        t.truthy(await tx.users.findById(rolledBack.id));
        throw new Error('outer fails after the inner one resolved');
      }),
    );
    t.is(await count(db.probes.users({ id: committed.id })), 1);
    t.is(await count(db.probes.users({ id: rolledBack.id })), 0);
  });

  test('transaction: calls outside never see its uncommitted writes', async (t, db) => {
    const user = makeUser();
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const running = db.storage.transaction(async (tx) => {
      await tx.users.insert(user);
      written();
      await sleep(30);
      throw new Error('roll back');
    });
    await wrote;
    t.is(await db.storage.users.findById(user.id), null);
    await t.throwsAsync(running);
    t.is(await db.storage.users.findById(user.id), null);
  });

  test('transaction: an enqueue rolls back with its cause', async (t, db) => {
    const kind = uid('kind');
    const item = makeOutboxItem(kind);
    await t.throwsAsync(
      db.storage.transaction(async (tx) => {
        await tx.outbox.enqueue(item);
        throw new Error('cause failed');
      }),
    );
    t.is(await db.storage.outbox.findById(item.id), null);
    t.deepEqual(await db.storage.outbox.claim({ workerId: 'w', now: at(10), leaseUntil: at(20), limit: 5, kinds: [kind] }), []);
  });

  test('concurrency: 50 transactions at once, each inserting a user, all commit', async (t, db) => {
    const users = Array.from({ length: 50 }, () => makeUser());
    await Promise.all(
      users.map((user) =>
        db.storage.transaction(async (tx) => {
          await tx.users.insert(user);
          await tx.credits.add(user.id, 1);
        }),
      ),
    );
    const stored = await Promise.all(users.map((u) => count(db.probes.users({ id: u.id }))));
    t.is(stored.reduce((a, b) => a + b, 0), 50);
  });

  test('concurrency: 50 spends of 1 on a balance of 20, exactly 20 succeed', async (t, db) => {
    const user = uid('usr');
    await db.storage.credits.add(user, 20);
    const results = await Promise.all(Array.from({ length: 50 }, () => db.storage.credits.spend(user, 1)));
    const ok = results.filter((r) => r !== null) as number[];
    t.is(ok.length, 20);
    t.deepEqual([...ok].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i), 'each spend saw its own balance');
    const [row] = await db.probes.creditBalances({ user_id: user });
    t.is(Number(row.balance), 0);
  });

  test('concurrency: 50 spends inside transactions, exactly 20 succeed', async (t, db) => {
    const user = uid('usr');
    await db.storage.credits.add(user, 20);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        db.storage.transaction(async (tx) => {
          const balance = await tx.credits.spend(user, 1);
          t.true(balance === null || balance >= 0);
          return balance;
        }),
      ),
    );
    t.is(results.filter((r) => r !== null).length, 20);
    const [row] = await db.probes.creditBalances({ user_id: user });
    t.is(Number(row.balance), 0);
  });

  test('concurrency: 20 claims of one idempotency key, exactly one wins', async (t, db) => {
    const key = uid('idem');
    const claim = (owner: string, now: string, expires: string) =>
      db.storage.idempotency.claim({ key, owner, created_at: now, expires_at: expires }, now);
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(`o${i}`, at(0), at(100))));
    t.is(first.filter(Boolean).length, 1);
    const afterExpiry = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(`p${i}`, at(200), at(300))));
    t.is(afterExpiry.filter(Boolean).length, 1, 'exactly one takes over the expired key');
    t.is(await count(db.probes.idempotencyKeys({ key })), 1);
  });

  test('concurrency: three workers claim 100 outbox items in batches, each exactly once', async (t, db) => {
    const kind = uid('kind');
    const items = Array.from({ length: 100 }, (_, i) => makeOutboxItem(kind, { next_attempt_at: at(i % 7) }));
    for (const item of items) await db.storage.outbox.enqueue(item);
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    const worker = async (workerId: string) => {
      for (;;) {
        const batch = await db.storage.outbox.claim({ workerId, now: at(50), leaseUntil: at(500), limit: 7, kinds: [kind] });
        if (batch.length === 0) return;
        for (const item of batch) {
          if (seen.has(item.id)) duplicates.push(item.id);
          seen.set(item.id, workerId);
          t.is(item.locked_by, workerId);
        }
      }
    };
    await Promise.all([worker('w1'), worker('w2'), worker('w3')]);
    t.deepEqual(duplicates, []);
    t.is(seen.size, 100);
    const leased = (await db.probes.outbox({ kind })).filter((row) => row.locked_by != null).length;
    t.is(leased, 100);
  });
}
