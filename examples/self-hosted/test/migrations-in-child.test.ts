import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import { createDataSource, formloomMigrationNames, pendingMigrations } from '@formloom/storage-typeorm';
import { postgresTestUrl } from '@formloom/storage-typeorm/testing';
import { startSelfHosted } from '../src';

/*
 * The launcher's server applies pending migrations in a child process and never loads their code itself
 * (docs/operations.md, "Memory"). This file must not read `formloomMigrations` (that loads the code): it
 * checks, in its own process, that a started app did not.
 */

const ROOT = resolve(__dirname, '../../../..');
const MAIN = join(ROOT, 'examples/self-hosted/dist/src/main.js');
const SRC = join(ROOT, 'examples/self-hosted/dist/src/index.js');
const silent = { write: () => undefined };

/** Migration modules this process has loaded (their files are named `<timestamp>-<name>.js`). */
const migrationModules = () => Object.keys(require.cache).filter((path) => /storage-typeorm\/dist\/src\/migrations\/\d+-[^/]+\.js$/.test(path));

/** Formloom's migrations the database at `url` has not recorded, read with a data source that loads none. */
async function pendingIn(url: string): Promise<string[]> {
  const ds = createDataSource(url, { migrations: false });
  try {
    return await pendingMigrations(ds);
  } finally {
    if (ds.isInitialized) await ds.destroy();
  }
}

/** A new, empty PostgreSQL schema (dropped at the end) and a URL whose search path is it. */
async function freshSchema(t: import('ava').ExecutionContext): Promise<string> {
  const base = await postgresTestUrl();
  // Named like the test helpers' schemas, which drop any a crashed run left behind.
  const schema = `fl_t${Math.floor(Date.now() / 1000).toString(36)}_${Math.random().toString(16).slice(2, 12)}`;
  const admin = async (sql: string) => {
    const ds = createDataSource(base, { migrations: false, poolSize: 1 });
    await ds.initialize();
    try {
      await ds.query(sql);
    } finally {
      await ds.destroy();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  t.teardown(() => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  return `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

test('sqlite: a new database is migrated by a child process, and the server loads no migration', async (t) => {
  t.timeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-migrate-child-'));
  const url = `sqlite:${join(dir, 'formloom.sqlite')}`;
  t.deepEqual(await pendingIn(url), [...formloomMigrationNames], 'a new file lacks every migration');
  const app = await startSelfHosted({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: url }, silent, { migrateInChild: true });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  t.deepEqual(await pendingIn(url), []);
  t.deepEqual(migrationModules(), []);
  t.is((await fetch(`${app.url}/readyz`)).status, 200);
  // The schema is the one the migrations build: an account and a key are written and read back.
  const user = await app.formloom.accounts.createUser({ email: 'owner@example.com' });
  const { api_key } = await app.formloom.accounts.createKey(user.id);
  t.is((await fetch(`${app.url}/api/v1/forms`, { headers: { authorization: `Bearer ${api_key}` } })).status, 200);
});

test('[postgres] two servers starting at once on a new schema: one set of migrations, no migration loaded', async (t) => {
  t.timeout(300_000);
  const url = await freshSchema(t);
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'formloom-migrate-child-pg-')));
  // One deployment: every instance has the same secret key (docs/scaling.md).
  const env = (dir: string) => ({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: url, FORMLOOM_SECRET_KEY: 'shared-key-0123456789abcdef' });
  const started = await Promise.allSettled(dirs.map((dir) => startSelfHosted(env(dir), silent, { migrateInChild: true })));
  const apps = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  t.teardown(async () => {
    for (const app of apps) await app.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  t.deepEqual(started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])), []);
  t.deepEqual(await pendingIn(url), []);
  // Each migration recorded once: the second child found them applied.
  const ds = createDataSource(url, { migrations: false });
  await ds.initialize();
  const rows = (await ds.query('SELECT name FROM formloom_migrations ORDER BY id')) as Array<{ name: string }>;
  await ds.destroy();
  t.deepEqual(rows.map((r) => r.name), [...formloomMigrationNames]);
  t.deepEqual(migrationModules(), []);
  for (const app of apps) t.is((await fetch(`${app.url}/readyz`)).status, 200);
});

/** Runs node `args` with `env` until it exits: its exit code and what it wrote to stderr. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((ok) => child.once('close', (code) => ok({ code, stderr })));
}

test('sqlite: a migration that fails stops the start with its message, as when it ran in the server', async (t) => {
  t.timeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-migrate-child-bad-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'formloom.sqlite')}`;
  // A bad database state: the first migration recorded as applied, its tables absent, so the second fails.
  const ds = createDataSource(url, { migrations: false });
  await ds.initialize();
  await ds.query('CREATE TABLE "formloom_migrations" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "timestamp" bigint NOT NULL, "name" varchar NOT NULL)');
  await ds.query('INSERT INTO "formloom_migrations" ("timestamp", "name") VALUES (?, ?)', [1732000000000, formloomMigrationNames[0]]);
  await ds.destroy();
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: url };

  const server = await run([MAIN], env);
  t.is(server.code, 1, server.stderr);
  const line = server.stderr.split('\n').find((l) => l.startsWith('Formloom could not start: '));
  t.truthy(line, server.stderr);
  t.regex(line!, /Table "teams" does not exist/);
  // The same start with the migrations in the process (as embedders and earlier versions run them): same message.
  const inProcess = await run(['-e', `require(${JSON.stringify(SRC)}).startSelfHosted(process.env, { write: () => undefined }).then(() => process.exit(0), (e) => { console.error('Formloom could not start: ' + e.message); process.exit(1); })`], env);
  t.is(inProcess.code, 1, inProcess.stderr);
  t.is(inProcess.stderr.split('\n').find((l) => l.startsWith('Formloom could not start: ')), line);
  t.deepEqual(await pendingIn(url), formloomMigrationNames.slice(1), 'nothing applied');
});
