import test from 'ava';
import type { Storage } from '@formloom/core';
import { at, makeOutboxItem, makeUser, uid } from '@formloom/core/testing';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { createTestDatabase, type TestDatabaseKind } from '../src/testing';

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: a transaction's storage refuses calls once the transaction ended`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    let leaked: Storage | undefined;
    await db.storage.transaction(async (tx) => {
      leaked = tx;
    });
    await t.throwsAsync(leaked!.users.findById('usr_x'), { message: /no longer usable/ });
  });

  test(`${kind}: close() lets a running transaction finish, then refuses calls`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const user = makeUser();
    const running = db.storage.transaction(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await tx.users.insert(user);
      return 'committed';
    });
    await new Promise((resolve) => setImmediate(resolve));
    await db.storage.close();
    t.is(await running, 'committed');
    await t.throwsAsync(db.storage.users.findById(user.id), { message: /closed/ });
    await t.throwsAsync(db.storage.transaction(async () => undefined), { message: /closed/ });
    t.false(db.dataSource.isInitialized);
  });

  test(`${kind}: a failed insert leaves the surrounding transaction usable`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const user = makeUser();
    await db.storage.users.insert(user);
    const other = makeUser();
    await db.storage.transaction(async (tx) => {
      await t.throwsAsync(tx.users.insert(makeUser({ email: user.email })), { message: /already exists/ });
      await tx.users.insert(other);
    });
    t.truthy(await db.storage.users.findById(other.id));
  });

  /*
   * A service that calls a port reading root storage inside `storage.transaction(...)`: on SQLite the root
   * call used to wait for the very transaction it ran in. Root calls in a transaction's async context join it.
   */
  test(`${kind}: a root storage call inside a transaction joins it instead of waiting for it`, async (t) => {
    const db = await createTestDatabase(kind);
    // close() waits for running transactions: after a deadlock it would hang the run instead of failing it.
    t.teardown(() => within(30_000, db.close()).catch(() => undefined));
    const root = db.storage;
    const user = makeUser();
    const rolledBack = makeUser();
    const seen = await within(30_000, root.transaction(async (tx) => {
      await tx.users.insert(user);
      const viaPort = async () => root.users.findById(user.id); // as a port holding the root storage would
      return viaPort();
    }));
    t.deepEqual(seen, user, 'the root call sees the transaction\'s uncommitted write');

    await t.throwsAsync(
      within(30_000, root.transaction(async () => {
        await root.users.insert(rolledBack);
        await root.transaction((nested) => nested.credits.add(rolledBack.id, 5)); // a nested root transaction joins too
        await root.questions.replaceForForm(uid('frm'), []); // so does the root's own atomic work
        throw new Error('roll back');
      })),
      { message: 'roll back' },
    );
    t.is(await root.users.findById(rolledBack.id), null, 'root writes made inside roll back with it');
    t.is(await root.credits.balance(rolledBack.id), 0);
  });

  test(`${kind}: work a transaction leaves running uses the root storage again after it ended`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const user = makeUser();
    let later!: Promise<unknown>;
    await db.storage.transaction(async (tx) => {
      await tx.users.insert(user);
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => db.storage.users.findById(user.id));
    });
    t.deepEqual(await within(30_000, later), user, 'not refused as a finished transaction');
  });

  test(`${kind}: a root call made while the transaction commits waits for it and sees what it committed`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const user = makeUser();
    let later!: Promise<unknown>;
    let inTx!: Promise<unknown>;
    await db.storage.transaction(async (tx) => {
      await tx.users.insert(user);
      // setImmediate runs once the callback has returned, while its COMMIT is still on its way.
      const afterCallback = new Promise((resolve) => setImmediate(resolve));
      later = afterCallback.then(() => db.storage.users.findById(user.id));
      inTx = afterCallback.then(() => db.storage.transaction((again) => again.users.findById(user.id)));
    });
    t.deepEqual(await within(30_000, later), user);
    t.deepEqual(await within(30_000, inTx), user, 'a transaction opened then starts after the commit');

    // After a rollback the same calls run too, on what was there before it.
    const rolledBack = makeUser();
    await t.throwsAsync(
      db.storage.transaction(async (tx) => {
        await tx.users.insert(rolledBack);
        const afterCallback = new Promise((resolve) => setImmediate(resolve));
        later = afterCallback.then(() => db.storage.users.findById(rolledBack.id));
        inTx = afterCallback.then(() => db.storage.transaction((again) => again.users.findById(rolledBack.id)));
        throw new Error('roll back');
      }),
      { message: 'roll back' },
    );
    t.is(await within(30_000, later), null);
    t.is(await within(30_000, inTx), null);
  });

  // Serial: a transaction of a concurrent test (another storage) would keep the hooks on meanwhile.
  test.serial(`${kind}: between transactions no async hooks tag the process's promises`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    // Node's async hooks, which an enabled AsyncLocalStorage turns on, tag each new promise with symbols.
    const tags = () => Object.getOwnPropertySymbols(Promise.resolve()).length;
    let inside = -1;
    await db.storage.transaction(async () => {
      inside = tags();
    });
    t.true(inside > 0, 'inside a transaction its context is on');
    t.is(tags(), 0, 'after it ended, off again');
    const user = makeUser();
    const seen = await db.storage.transaction(async (tx) => {
      await tx.users.insert(user);
      return db.storage.users.findById(user.id);
    });
    t.deepEqual(seen, user, 'the next transaction turns it on: a root call joins it');
    t.is(tags(), 0);
  });

  test(`${kind}: another storage used inside a transaction does not join it`, async (t) => {
    const [a, b] = await Promise.all([createTestDatabase(kind), createTestDatabase(kind)]);
    t.teardown(() => Promise.all([a.close(), b.close()]));
    const user = makeUser();
    await t.throwsAsync(
      a.storage.transaction(async () => {
        await b.storage.users.insert(user);
        throw new Error('roll back a');
      }),
    );
    t.deepEqual(await b.storage.users.findById(user.id), user, 'b committed on its own');
    t.is(await a.storage.users.findById(user.id), null);
  });
}

/** `promise`, or a rejection after `ms`: a deadlock fails the test instead of hanging it. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result after ${ms} ms (deadlock?)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/*
 * Another process holding SQLite's write lock for longer than the busy timeout (a seeding script, an operator's
 * `sqlite3` session): a write that gives up on it fails, and must not leave its statement half-run on the
 * connection. A statement that gave up with SQLITE_BUSY stays pending until it is reset, and SQLite refuses to
 * commit any later transaction of the connection while one is ("SQL statements in progress"): every write of the
 * server then failed until restart (sql/sqlite-statements.ts).
 */
test('sqlite: a write that gave up waiting for another process leaves the connection usable', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const kind = uid('kind');
  await db.storage.outbox.enqueue(makeOutboxItem(kind));
  const other = new sqlite3.Database(db.url.slice('sqlite:'.length));
  const exec = (sql: string) => new Promise<void>((resolve, reject) => other.exec(sql, (err) => (err ? reject(err) : resolve())));
  t.teardown(() => new Promise<void>((resolve) => other.close(() => resolve())));
  await exec('BEGIN IMMEDIATE');
  const claim = () => db.storage.outbox.claim({ workerId: 'w', now: at(10), leaseUntil: at(99), limit: 5, kinds: [kind] });
  // The outbox claim is one statement outside a transaction (UPDATE ... RETURNING): it waits busy_timeout, then fails.
  await t.throwsAsync(claim(), { message: /SQLITE_BUSY|locked/ });
  await exec('ROLLBACK');
  const user = makeUser();
  await db.storage.transaction((tx) => tx.users.insert(user));
  t.truthy(await db.storage.users.findById(user.id), 'a transaction commits');
  await db.storage.users.insert(makeUser());
  t.is((await claim()).length, 1, 'and the claim that failed runs again');
});

/*
 * A second process on the same SQLite file (as the `formloom` CLI beside the server): SQLite's own
 * locking decides between processes, helped by WAL, busy_timeout and BEGIN IMMEDIATE.
 */
test('sqlite: a second process on the same file shares credits and outbox safely', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const user = uid('usr');
  const kind = uid('kind');
  await db.storage.credits.add(user, 60);
  for (let i = 0; i < 60; i++) await db.storage.outbox.enqueue(makeOutboxItem(kind));

  const other = await startWorker(join(__dirname, 'helpers', 'sqlite-worker.js'), [db.url, user, kind, 'other-process']);
  other.go();
  const spends = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? db.storage.credits.spend(user, 1) : db.storage.transaction((tx) => tx.credits.spend(user, 1)),
    ),
  );
  const claimed: string[] = [];
  for (;;) {
    const batch = await db.storage.outbox.claim({ workerId: 'this-process', now: at(10), leaseUntil: at(99), limit: 3, kinds: [kind] });
    if (batch.length === 0) break;
    claimed.push(...batch.map((b) => b.id));
  }
  const result = JSON.parse(await other.result) as { spent: number; claimed: string[] };

  t.log(`spent/claimed here ${spends.filter((s) => s !== null).length}/${claimed.length}, there ${result.spent}/${result.claimed.length}`);
  t.is(spends.filter((s) => s !== null).length + result.spent, 60);
  t.is(await db.storage.credits.balance(user), 0);
  const all = [...claimed, ...result.claimed];
  t.is(all.length, 60);
  t.is(new Set(all).size, 60);
});

/** Spawns a helper that prints `ready`, waits for `go` on stdin, then prints one line of JSON and exits. */
async function startWorker(script: string, args: string[]): Promise<{ go(): void; result: Promise<string> }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve();
    });
    child.once('exit', () => reject(new Error('the worker exited before it was ready')));
  });
  const result = new Promise<string>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out.slice('ready\n'.length)) : reject(new Error(`worker exit ${code}`)))),
  );
  await ready;
  return { go: () => child.stdin.write('go\n'), result };
}
