import test from 'ava';
import { makeUser } from '@formloom/core/testing';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createDataSource, createTypeormStorage, formloomEntities, parseDatabaseUrl, runMigrations } from '../src';
import { createTestDatabase, postgresTestUrl, type TestDatabaseKind } from '../src/testing';

test('parseDatabaseUrl reads sqlite and postgres URLs', (t) => {
  t.deepEqual(parseDatabaseUrl('sqlite:./data/formloom.sqlite'), { kind: 'sqlite', path: './data/formloom.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite:///var/db.sqlite'), { kind: 'sqlite', path: '/var/db.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite::memory:'), { kind: 'sqlite', path: ':memory:' });
  t.deepEqual(parseDatabaseUrl('postgres://u@h/db'), { kind: 'postgres', url: 'postgres://u@h/db' });
  t.deepEqual(parseDatabaseUrl('postgresql://u@h/db'), { kind: 'postgres', url: 'postgresql://u@h/db' });
  const err = t.throws(() => parseDatabaseUrl('mysql://user:secret@host/db'));
  t.false(err?.message.includes('secret'), 'credentials stay out of the message');
  t.throws(() => parseDatabaseUrl('sqlite:'));
});

test('sqlite: creates the parent directory, WAL, busy timeout, foreign keys, migrations once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-ds-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dataSource = createDataSource(`sqlite:${join(dir, 'nested', 'deeper', 'db.sqlite')}`, { busyTimeoutMs: 1234 });
  t.deepEqual(await runMigrations(dataSource), [
    'FormloomInitial1732000000000',
    'FormloomResponsesWebhooks1733000000000',
    'FormloomTeamAdministration1734000000000',
  ]);
  t.deepEqual(await runMigrations(dataSource), [], 'already applied');
  t.true(existsSync(join(dir, 'nested', 'deeper', 'db.sqlite')));
  const pragma = async (name: string) => Object.values((await dataSource.query(`PRAGMA ${name}`))[0])[0];
  t.is(await pragma('journal_mode'), 'wal');
  t.is(await pragma('busy_timeout'), 1234);
  t.is(await pragma('foreign_keys'), 1);
  t.is(await pragma('synchronous'), 1, 'NORMAL');
  await createTypeormStorage(dataSource).close();
  t.false(dataSource.isInitialized, 'close() destroys the data source');
});

test('sqlite::memory: works, the storage may be made before the data source is initialized', async (t) => {
  const dataSource = createDataSource('sqlite::memory:');
  const storage = createTypeormStorage(dataSource);
  await runMigrations(dataSource);
  t.is(await storage.credits.add('usr_1', 3), 3);
  t.is(await storage.transaction((tx) => tx.credits.spend('usr_1', 2)), 1);
  await storage.close();
});

test('runMigrations refuses a data source without Formloom migrations', async (t) => {
  const dataSource = new DataSource({ type: 'sqlite', database: ':memory:', entities: [...formloomEntities] });
  await t.throwsAsync(runMigrations(dataSource), { message: /formloomMigrations/ });
  await dataSource.destroy();
});

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: the migration creates exactly the tables the entities describe`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const pending = await db.dataSource.driver.createSchemaBuilder().log();
    t.deepEqual(pending.upQueries.map((q) => q.query), []);
  });
}

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
