import test from '../helpers/bounded-test';
import { startTestApp, type TestApp } from '../helpers/app';
import { memoryRateLimitStore, type RateLimitStore } from '../../src';
import { waitFor } from '@formloom/core/testing';

/** A store that records every write it is asked for, around the in-memory one. */
function countingStore() {
  const inner = memoryRateLimitStore();
  const writes: number[] = [];
  const peeks: string[] = [];
  const store: RateLimitStore = {
    hit: (key, now, resetsAt, by = 1) => {
      writes.push(by);
      return inner.hit(key, now, resetsAt, by);
    },
    release: (key, now) => inner.release(key, now),
    peek: (key, now) => {
      peeks.push(key);
      return inner.peek(key, now);
    },
    prune: (before) => inner.prune(before),
  };
  return { store, writes, peeks, inner };
}

async function withApp(limit: number, fn: (app: TestApp, key: string, counting: ReturnType<typeof countingStore>) => Promise<void>) {
  const counting = countingStore();
  const app = await startTestApp('sqlite', { rateLimits: { store: counting.store, perKey: { limit }, failedAuth: false } });
  try {
    const { key } = await app.user('free');
    counting.writes.length = 0;
    await fn(app, key, counting);
  } finally {
    await app.close();
  }
}

/** Polls `check` (every 20 ms, for at most a generous 2 minutes). */
/** Waits (the shared `waitFor`) until `check` holds; the assertions after it say what did not. */
async function until(check: () => boolean) {
  await waitFor(check, { timeoutMs: 120_000, intervalMs: 20 }).catch(() => undefined);
}

const remaining = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

test('far below a high limit, hits are counted exactly but written to the store in batches', async (t) => {
  await withApp(1000, async (app, key, { writes }) => {
    const seen: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 40; i++) seen.push(remaining(await app.api('GET', '/forms', { key })));
    t.deepEqual(seen, Array.from({ length: 40 }, (_, i) => 999 - i), 'X-RateLimit-Remaining counts every request');
    // One write for the first hit, then at most one batch per 200 ms flush interval, however slow the machine.
    const flushes = Math.ceil((Date.now() - started) / 200) + 1;
    t.true(writes.length <= 1 + flushes && writes.length < 40, `40 requests in ${Date.now() - started} ms made ${writes.length} writes`);
    // The flush runs on a timer: wait for its outcome (a busy machine delays timers), not for a time.
    await until(() => writes.reduce((a, b) => a + b, 0) >= 40);
    t.is(writes.reduce((a, b) => a + b, 0), 40, 'after a flush the store holds every hit');
  });
});

test('past half of the limit, every hit is one write (exact across instances near the limit)', async (t) => {
  await withApp(100, async (app, key, { writes }) => {
    for (let i = 0; i < 50; i++) await app.api('GET', '/forms', { key });
    await until(() => writes.reduce((a, b) => a + b, 0) >= 50);
    const before = writes.length;
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++) statuses.push((await app.api('GET', '/forms', { key })).status);
    t.is(writes.length - before, 52, 'one write per hit');
    t.is(writes.slice(before).every((by) => by === 1), true);
    t.is(statuses.filter((s) => s === 200).length, 50, 'exactly the limit');
    t.is(statuses.filter((s) => s === 429).length, 2);
  });
});

test('limits under 100 are never batched', async (t) => {
  await withApp(99, async (app, key, { writes }) => {
    for (let i = 0; i < 5; i++) await app.api('GET', '/forms', { key });
    t.deepEqual(writes, [1, 1, 1, 1, 1]);
  });
});

const badKey = (i: number) => `fl_${'c'.repeat(24)}_${i.toString(16).padStart(64, '0')}`;

test('an address this instance knows no failure of costs no counter read; after one, the strict path applies', async (t) => {
  const counting = countingStore();
  const app = await startTestApp('sqlite', { rateLimits: { store: counting.store, failedAuth: { limit: 20 } } });
  t.teardown(() => app.close());
  const { key } = await app.user('free');
  counting.peeks.length = 0;
  for (let i = 0; i < 5; i++) t.is((await app.api('GET', '/forms', { key })).status, 200);
  t.deepEqual(counting.peeks, [], 'a working integration reads no failure counter');
  t.is((await app.api('GET', '/forms', { key: badKey(1) })).status, 401);
  t.is((await app.api('GET', '/forms', { key })).status, 200);
  t.is(counting.peeks.length, 1, 'once a failure is known here, each attempt reads the shared counter');
});

test('a first failure on an instance is refused when the address is over the limit on another one', async (t) => {
  const counting = countingStore();
  const rateLimits = { store: counting.store, failedAuth: { limit: 3 } };
  const [a, b] = [await startTestApp('sqlite', { rateLimits }), await startTestApp('sqlite', { rateLimits })];
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await a.api('GET', '/forms', { key: badKey(i) })).status);
  t.deepEqual(statuses, [401, 401, 401, 429]);
  const first = await b.api('GET', '/forms', { key: badKey(9) });
  t.is(first.status, 429, 'the shared count decides, not what this instance had seen');
  t.is(first.body.error.code, 'RATE_LIMITED');
  t.is((await b.api('GET', '/forms', { key: badKey(10) })).status, 429);
});
