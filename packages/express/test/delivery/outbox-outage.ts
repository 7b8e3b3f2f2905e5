import test from '../helpers/bounded-test';
import { createFormloom, definePlugin, type PluginContext, type Storage } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { DB_KINDS } from '../helpers/app';
import { waitFor } from '@formloom/core/testing';

/**
 * A storage that fails every outbox call and transaction while `down` (a database that went away), at the
 * port boundary; everything else, and every call once it is back, reaches the real database.
 */
function flakyStorage(real: Storage) {
  const state = { down: false, failedClaims: [] as number[] };
  const fail = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  const outbox = new Proxy(real.outbox, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (!state.down) return v.apply(target, args);
        if (prop === 'claim') state.failedClaims.push(performance.now());
        return fail();
      };
    },
  });
  const storage = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'outbox') return outbox;
      if (prop === 'transaction') return (work: (tx: Storage) => Promise<unknown>) => (state.down ? fail() : target.transaction(work));
      return Reflect.get(target, prop, receiver);
    },
  });
  return { storage, state };
}

const until = async (check: () => boolean) => {
  await waitFor(check, { intervalMs: 10 });
};

for (const kind of DB_KINDS) {
  test(`[${kind}] the outbox worker logs one line when storage goes down, backs off, and delivers once it is back`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const { storage, state } = flakyStorage(db.storage);
    const handled: string[] = [];
    let ctx!: PluginContext<unknown>;
    const plugin = definePlugin({
      name: 'ping',
      version: '1.0.0',
      outboxHandlers: (c) => {
        ctx = c;
        return [{ kind: 'ping.send', handle: async (item) => (handled.push(String(item.payload.n)), { status: 'delivered' }) }];
      },
    });
    const lines: Array<{ level: string; message: string }> = [];
    const log = (level: string) => (message: string) => void lines.push({ level, message });
    const formloom = createFormloom({ storage, plugins: [plugin], config: { secretKey: 'k' }, logger: { info: log('info'), warn: log('warn'), error: log('error') } });
    const pollMs = 5;
    formloom.worker.start({ pollMs, maxBackoffMs: 400 });
    t.teardown(() => formloom.worker.stop());

    await ctx.enqueue('ping.send', { n: 1 });
    await until(() => handled.length === 1);

    state.down = true;
    await until(() => state.failedClaims.length >= 6);
    // Meanwhile another instance queues an item in the shared database (the real storage, not the failing one).
    const now = new Date().toISOString();
    await db.storage.outbox.enqueue({ id: `obx_${kind}_2`, kind: 'ping.send', payload: { n: 2 }, status: 'pending', attempts: 0, next_attempt_at: now, locked_by: null, locked_until: null, last_error: null, created_at: now, updated_at: now });
    const gaps = state.failedClaims.slice(1).map((at, i) => at - state.failedClaims[i]!);
    // The waits double from 2 × pollMs: the fifth is at least 32 × pollMs (timers never fire early).
    t.true(gaps[4]! >= 32 * pollMs - 1, `waits between failing polls grow: ${gaps.map(Math.round).join(', ')}`);
    state.down = false;
    await until(() => handled.length === 2);

    t.deepEqual(handled, ['1', '2']);
    t.deepEqual(
      lines.filter((l) => l.message.startsWith('formloom outbox')),
      [
        { level: 'warn', message: 'formloom outbox worker: storage unavailable, backing off' },
        { level: 'info', message: 'formloom outbox worker: storage back, resuming' },
      ],
      'one line per change of state, none per failing poll',
    );
  });
}
