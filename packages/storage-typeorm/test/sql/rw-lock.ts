import test from 'ava';
import { ReadWriteLock } from '../../src/sql/rw-lock';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A unit of work that records when it starts and runs until `finish()` is called. */
function job(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      log.push(`+${name}`);
      await done;
      log.push(`-${name}`);
    },
    finish: () => finish(),
  };
}

test('shared holders run together', async (t) => {
  const lock = new ReadWriteLock();
  const log: string[] = [];
  const [a, b] = [job(log, 'a'), job(log, 'b')];
  const running = [lock.shared(a.work), lock.shared(b.work)];
  await tick();
  t.deepEqual(log, ['+a', '+b']);
  a.finish();
  b.finish();
  await Promise.all(running);
  t.deepEqual(lock.state, { readers: 0, writer: false, waiting: 0 });
});

test('an exclusive holder runs alone, and later readers queue behind a waiting writer', async (t) => {
  const lock = new ReadWriteLock();
  const log: string[] = [];
  const [r1, w, r2, w2] = [job(log, 'r1'), job(log, 'w'), job(log, 'r2'), job(log, 'w2')];
  const running = [lock.shared(r1.work), lock.exclusive(w.work), lock.shared(r2.work), lock.exclusive(w2.work)];
  await tick();
  t.deepEqual(log, ['+r1'], 'the writer waits for the reader; the second reader waits for the writer');
  r1.finish();
  await tick();
  t.deepEqual(log, ['+r1', '-r1', '+w']);
  w.finish();
  await tick();
  t.deepEqual(log.slice(3), ['-w', '+r2']);
  r2.finish();
  await tick();
  t.deepEqual(log.slice(5), ['-r2', '+w2']);
  w2.finish();
  await Promise.all(running);
});

test('a failing holder releases the lock and its error reaches the caller', async (t) => {
  const lock = new ReadWriteLock();
  await t.throwsAsync(lock.exclusive(async () => {
    throw new Error('boom');
  }), { message: 'boom' });
  await t.throwsAsync(lock.shared(() => {
    throw new Error('sync boom');
  }), { message: 'sync boom' });
  t.is(await lock.exclusive(async () => 42), 42);
  t.deepEqual(lock.state, { readers: 0, writer: false, waiting: 0 });
});

test('many exclusive holders never overlap', async (t) => {
  const lock = new ReadWriteLock();
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      (i % 3 === 0 ? lock.shared.bind(lock) : lock.exclusive.bind(lock))(async () => {
        inside += i % 3 === 0 ? 0 : 1;
        most = Math.max(most, inside);
        await tick();
        inside -= i % 3 === 0 ? 0 : 1;
      }),
    ),
  );
  t.is(most, 1);
});
