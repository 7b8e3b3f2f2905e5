import test from 'ava';
import { makeUser } from '@formloom/core/testing';
import { existsSync } from 'node:fs';
import { createDataSource, createTypeormStorage } from '../src';
import { createTestDatabase, postgresTestUrl } from '../src/testing';

test('postgres: the test URL reaches the same schema, and close() drops it', async (t) => {
  const db = await createTestDatabase('postgres');
  t.regex(db.schema!, /^fl_t[0-9a-z]+_[0-9a-f]+$/);
  const user = makeUser();
  await db.storage.users.insert(user);

  const viaUrl = createTypeormStorage(await createDataSource(db.url).initialize());
  t.deepEqual(await viaUrl.users.findByEmail(user.email), user);
  await viaUrl.close();

  await db.close();
  await db.close();
  const admin = await createDataSource(await postgresTestUrl()).initialize();
  t.teardown(() => admin.destroy());
  const rows = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [db.schema]);
  t.is(rows.length, 0);
});

test('sqlite: each test database is its own file, removed on close', async (t) => {
  const [a, b] = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('sqlite')]);
  t.not(a.url, b.url);
  const user = makeUser();
  await a.storage.users.insert(user);
  t.is(await b.storage.users.findById(user.id), null);
  t.deepEqual((await a.raw(`SELECT email FROM users WHERE id = ${a.placeholder(1)}`, [user.id]))[0], { email: user.email });
  await Promise.all([a.close(), b.close()]);
  t.false(existsSync(a.url.slice('sqlite:'.length)));
});
