import { makeGeneration } from './credits-ledger';
import { at, type StorageTest, uid } from './fixtures';

/**
 * Voice generations' reuse lookup, retention (`retain`, `takeExpired`) and free retake claims
 * (docs/voice.md, "Reuse and retention", "Retakes"). Retention tests use retained_until far before the
 * other tests' generations, so sweeps of concurrent tests never meet.
 */
export function voiceLibraryTests(test: StorageTest): void {
  test('voice generations: findReusable finds the newest kept, ready, identical generation of the user', async (t, db) => {
    const repo = db.storage.voiceGenerations;
    const user = uid('usr');
    const hash = uid('hash');
    const g = (over: Parameters<typeof makeGeneration>[0]) => makeGeneration({ user_id: user, request_hash: hash, ...over });
    const old = g({ created_at: at(10) });
    const newest = g({ created_at: at(20) });
    const failed = g({ created_at: at(30), status: 'failed' });
    const expired = g({ created_at: at(40), retained_until: at(50) });
    const other = makeGeneration({ user_id: uid('usr'), request_hash: hash, created_at: at(60) });
    for (const x of [old, newest, failed, expired, other]) await repo.insert(x);
    t.is((await repo.findReusable(user, hash, at(0), at(60)))?.id, newest.id);
    t.is((await repo.findReusable(user, hash, at(15), at(60)))?.id, newest.id);
    t.is(await repo.findReusable(user, hash, at(25), at(60)), null, 'none created since');
    t.is(await repo.findReusable(user, uid('hash'), at(0), at(60)), null);
    t.is(await repo.findReusable(user, hash, at(0), at(200)), null, 'all past their retention at that time');
    await repo.update(newest.id, { retained_until: null, save: true });
    t.is((await repo.findReusable(user, hash, at(0), at(200)))?.id, newest.id, 'saved audio stays');
  });

  test('voice generations: retain moves retention later only, saves with null, and fails once swept', async (t, db) => {
    const repo = db.storage.voiceGenerations;
    const g = makeGeneration({ retained_until: at(-800_000) });
    await repo.insert(g);
    t.is((await repo.retain(g.id, at(-900_000), at(-850_000)))?.retained_until, at(-800_000), 'never earlier');
    t.is((await repo.retain(g.id, at(-700_000), at(-850_000)))?.retained_until, at(-700_000));
    t.is(await repo.retain(g.id, at(-600_000), at(-650_000)), null, 'already past its retention');
    t.is(await repo.retain(uid('gen'), null, at(0)), null);
    const taken = await repo.takeExpired(at(-690_000), 1000);
    t.true(taken.some((x) => x.id === g.id));
    t.is((await repo.findById(g.id))?.audio_deleted_at, at(-690_000));
    t.is(await repo.retain(g.id, null, at(-695_000)), null, 'its audio is gone');

    const saved = makeGeneration({ retained_until: at(-800_000) });
    await repo.insert(saved);
    const kept = await repo.retain(saved.id, null, at(-850_000));
    t.like(kept, { retained_until: null, save: true });
    t.is((await repo.retain(saved.id, at(-100), at(-850_000)))?.retained_until, null, 'a saved clip stays saved');
    t.false((await repo.takeExpired(at(-600_000), 1000)).some((x) => x.id === saved.id));
  });

  test('voice generations: concurrent sweeps take each expired generation once', async (t, db) => {
    const repo = db.storage.voiceGenerations;
    const mine = Array.from({ length: 12 }, (_, i) => makeGeneration({ retained_until: at(-2_000_000 + i) }));
    for (const g of mine) await repo.insert(g);
    const ids = new Set(mine.map((g) => g.id));
    const sweeps = await Promise.all([0, 1, 2].map(() => repo.takeExpired(at(-1_900_000), 5)));
    const more = await repo.takeExpired(at(-1_900_000), 100);
    // (Another test's wider sweep may take some of these too: each is still taken once, by someone.)
    const taken = [...sweeps.flat(), ...more].map((g) => g.id).filter((id) => ids.has(id));
    t.is(new Set(taken).size, taken.length, 'no generation taken twice');
    for (const g of mine) t.truthy((await repo.findById(g.id))?.audio_deleted_at);
    t.deepEqual(await repo.takeExpired(at(-1_900_000), 100).then((l) => l.filter((g) => ids.has(g.id))), []);
  });

  test('voice generations: free retake claims count per clip and per key budget, atomically', async (t, db) => {
    const repo = db.storage.voiceGenerations;
    const user = uid('usr');
    const key = uid('key');
    const billed = makeGeneration({ user_id: user, key_id: key, characters: 400, created_at: at(10) }); // a quarter: 100
    const refunded = makeGeneration({ user_id: user, key_id: key, characters: 4000, status: 'failed', credits_charged: 0, created_at: at(10) });
    const before = makeGeneration({ user_id: user, key_id: key, characters: 4000, created_at: at(-10) });
    const clipA = makeGeneration({ user_id: user, key_id: key, characters: 30, created_at: at(11) });
    const clipB = makeGeneration({ user_id: user, key_id: key, characters: 30, created_at: at(12) });
    for (const g of [billed, refunded, before, clipA, clipB]) await repo.insert(g);
    t.deepEqual(await repo.retakeUsage(key, user, at(0)), { billed_characters: 460, free_retake_characters: 0 });
    const claim = (generation_id: string, characters = 30) => ({
      id: uid('rtk'), generation_id, key_id: key, user_id: user, characters, created_at: at(20), since: at(0), max_per_generation: 2, billed_share: 0.25,
    });
    // Budget 115 characters: of eight concurrent 30-character claims over two clips, at most three fit,
    // and each clip gets at most two.
    const outcomes = await Promise.all([clipA, clipB, clipA, clipB, clipA, clipB, clipA, clipB].map((g) => repo.claimFreeRetake(claim(g.id))));
    const ok = outcomes.filter((o) => o.ok).length;
    t.is(ok, 3);
    t.is((await repo.freeRetakes(clipA.id)) + (await repo.freeRetakes(clipB.id)), 3);
    t.true((await repo.freeRetakes(clipA.id)) <= 2 && (await repo.freeRetakes(clipB.id)) <= 2);
    t.deepEqual(await repo.retakeUsage(key, user, at(0)), { billed_characters: 460, free_retake_characters: 90 });
    t.like(await repo.claimFreeRetake(claim(clipA.id, 30)), { ok: false }, '120 characters would be over 115');

    // A released claim frees its characters and its place.
    // 20 more billed (a quarter of 480 is 120): one 20-character retake fits (110), a second does not (130).
    const small = makeGeneration({ user_id: user, key_id: key, characters: 20, created_at: at(13) });
    await repo.insert(small);
    const c = claim(small.id, 20);
    t.deepEqual(await repo.claimFreeRetake(c), { ok: true, retakes_used: 1 });
    t.deepEqual(await repo.claimFreeRetake(claim(small.id, 20)), { ok: false, reason: 'budget' });
    await repo.releaseFreeRetake(c.id);
    t.is(await repo.freeRetakes(small.id), 0);
    t.deepEqual(await repo.claimFreeRetake(claim(small.id, 20)), { ok: true, retakes_used: 1 });
    const other = makeGeneration({ user_id: user, key_id: key, characters: 1, created_at: at(14) });
    await repo.insert(other);
    t.deepEqual((await repo.claimFreeRetake(claim(other.id, 1))), { ok: true, retakes_used: 1 });
    t.deepEqual((await repo.claimFreeRetake(claim(other.id, 1))), { ok: true, retakes_used: 2 });
    t.deepEqual((await repo.claimFreeRetake(claim(other.id, 1))), { ok: false, reason: 'retakes_used' });
  });
}
