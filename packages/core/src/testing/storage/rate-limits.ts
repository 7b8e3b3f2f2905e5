import { at, count, type StorageTest, uid } from './fixtures';

/** rateLimits: fixed windows counted by one atomic upsert, read without counting, and pruned. */
export function rateLimitTests(test: StorageTest): void {
  test('rateLimits: hits count up within a window and a new window starts once it ended', async (t, db) => {
    const key = uid('rl');
    t.deepEqual(await db.storage.rateLimits.hit(key, at(0), at(60)), { hits: 1, resets_at: at(60) });
    t.deepEqual(await db.storage.rateLimits.hit(key, at(10), at(70)), { hits: 2, resets_at: at(60) }, 'the window end stays');
    t.deepEqual(await db.storage.rateLimits.hit(key, at(59.999), at(119.999)), { hits: 3, resets_at: at(60) });
    t.deepEqual(await db.storage.rateLimits.hit(key, at(60), at(120)), { hits: 1, resets_at: at(120) }, 'ended at now: restarts');
    t.deepEqual(await db.storage.rateLimits.hit(key, at(500), at(560)), { hits: 1, resets_at: at(560) });
    t.is(await count(db.probes.rateLimits({ bucket_key: key })), 1, 'one row per key');
  });

  test('rateLimits: a hit may count a batch of hits at once', async (t, db) => {
    const key = uid('rl');
    t.deepEqual(await db.storage.rateLimits.hit(key, at(0), at(60), 5), { hits: 5, resets_at: at(60) }, 'a new window starts with the batch');
    t.deepEqual(await db.storage.rateLimits.hit(key, at(1), at(61), 3), { hits: 8, resets_at: at(60) });
    t.deepEqual(await db.storage.rateLimits.hit(key, at(2), at(62)), { hits: 9, resets_at: at(60) }, 'one by default');
    t.deepEqual(await db.storage.rateLimits.hit(key, at(60), at(120), 4), { hits: 4, resets_at: at(120) }, 'an ended window restarts with the batch');
  });

  test('rateLimits: keys count independently', async (t, db) => {
    const [a, b] = [uid('rl'), uid('rl')];
    await db.storage.rateLimits.hit(a, at(0), at(60));
    await db.storage.rateLimits.hit(a, at(1), at(61));
    t.is((await db.storage.rateLimits.hit(b, at(2), at(62))).hits, 1);
    t.is((await db.storage.rateLimits.peek(a, at(3)))?.hits, 2);
  });

  test('rateLimits: no hit is lost under concurrent hits', async (t, db) => {
    const key = uid('rl');
    const results = await Promise.all(Array.from({ length: 40 }, () => db.storage.rateLimits.hit(key, at(0), at(60))));
    t.deepEqual(results.map((r) => r.hits).sort((x, y) => x - y), Array.from({ length: 40 }, (_, i) => i + 1));
    t.true(results.every((r) => r.resets_at === at(60)));
    t.deepEqual(await db.storage.rateLimits.peek(key, at(1)), { hits: 40, resets_at: at(60) });
  });

  test('rateLimits: release takes back one hit of the running window only', async (t, db) => {
    const key = uid('rl');
    await db.storage.rateLimits.release(key, at(0));
    t.is(await db.storage.rateLimits.peek(key, at(0)), null, 'releasing an unknown key creates nothing');
    await db.storage.rateLimits.hit(key, at(0), at(60));
    await db.storage.rateLimits.hit(key, at(1), at(61));
    await db.storage.rateLimits.release(key, at(2));
    t.deepEqual(await db.storage.rateLimits.peek(key, at(3)), { hits: 1, resets_at: at(60) });
    await db.storage.rateLimits.release(key, at(3));
    await db.storage.rateLimits.release(key, at(4));
    t.deepEqual(await db.storage.rateLimits.peek(key, at(5)), { hits: 0, resets_at: at(60) }, 'never below zero');
    await db.storage.rateLimits.hit(key, at(60), at(120));
    await db.storage.rateLimits.release(key, at(120));
    t.deepEqual(await db.storage.rateLimits.peek(key, at(61)), { hits: 1, resets_at: at(120) }, 'an ended window is not released into');
  });

  test('rateLimits: peek counts nothing and ignores an ended window', async (t, db) => {
    const key = uid('rl');
    t.is(await db.storage.rateLimits.peek(key, at(0)), null, 'unknown key');
    await db.storage.rateLimits.hit(key, at(0), at(60));
    t.deepEqual(await db.storage.rateLimits.peek(key, at(30)), { hits: 1, resets_at: at(60) });
    t.deepEqual(await db.storage.rateLimits.peek(key, at(30)), { hits: 1, resets_at: at(60) }, 'peeking twice counts nothing');
    t.is(await db.storage.rateLimits.peek(key, at(60)), null, 'the window ended');
  });

  test('rateLimits: prune deletes ended windows only', async (t, db) => {
    // Far before the other tests' instants, so pruning here never touches their rows.
    const [ended, running] = [uid('rl'), uid('rl')];
    await db.storage.rateLimits.hit(ended, at(-900_000), at(-899_940));
    await db.storage.rateLimits.hit(running, at(-899_990), at(-800_000));
    t.true((await db.storage.rateLimits.prune(at(-899_900))) >= 1);
    t.is(await db.storage.rateLimits.peek(ended, at(-899_950)), null);
    t.is((await db.storage.rateLimits.peek(running, at(-899_900)))?.hits, 1);
    t.is(await count(db.probes.rateLimits({ bucket_key: ended })), 0);
  });
}
