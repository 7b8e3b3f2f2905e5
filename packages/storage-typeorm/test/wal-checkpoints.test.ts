import test from 'ava';
import { readFileSync } from 'node:fs';
import { makeUser, uid, waitFor } from '@formloom/core/testing';
import { createTestDatabase } from '../src/testing';

/*
 * SQLite's write-ahead log is checkpointed by a connection of the storage's own, not inside the writer's commits
 * (src/sql/sqlite-checkpointer.ts): a commit reaches the database file moments later although the log holds far
 * fewer pages than SQLite's automatic checkpoint (1,000) or the writer's raised bound waits for.
 */
test('sqlite: commits are copied into the database file by the checkpointer, the writer keeps a larger bound of its own', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const file = db.url.slice('sqlite:'.length);
  const marker = uid('checkpointed');
  await db.storage.transaction(async (tx) => {
    await tx.users.insert(makeUser({ first_name: marker }));
  });
  // The writer's own settings, set at its first transaction.
  const [auto] = await db.raw('PRAGMA wal_autocheckpoint');
  const [cache] = await db.raw('PRAGMA cache_size');
  t.is(Number(Object.values(auto!)[0]), 4000);
  t.is(Number(Object.values(cache!)[0]), -4000);
  // A handful of log pages: only the checkpointer copies them into the file while the storage is open.
  await waitFor(() => readFileSync(file).includes(marker), { what: 'the committed row in the database file' });
  t.pass();
});

test('sqlite: close() ends the checkpointer too: the file is left with no other connection', async (t) => {
  const db = await createTestDatabase('sqlite');
  const file = db.url.slice('sqlite:'.length);
  const marker = uid('closed');
  for (let i = 0; i < 5; i++) await db.storage.transaction((tx) => tx.users.insert(makeUser({ first_name: `${marker}-${i}` })));
  await db.storage.close();
  // The last connection to close checkpoints the whole log into the file and removes the log.
  t.true(readFileSync(file).includes(`${marker}-4`));
  t.throws(() => readFileSync(`${file}-wal`), { code: 'ENOENT' });
  await db.close();
});
