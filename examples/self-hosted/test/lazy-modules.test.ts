import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startSelfHosted } from '../src';

/*
 * What the server holds at rest is mostly the code it loaded (docs/benchmarks.md, "Session 12"): TypeORM's
 * drivers for other databases, its directory loader and its SQL pretty-printer stay on disk until used
 * (patches/typeorm+*.patch, applied by `npm install`).
 */

const typeormModules = () => Object.keys(require.cache).filter((path) => path.includes('/node_modules/typeorm/'));

test('an app on SQLite loads TypeORM\'s SQLite driver only, and neither glob nor the SQL formatter', async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-lazy-modules-'));
  const app = await startSelfHosted({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}` }, { write: () => undefined });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // Other drivers' small shared files (parameter and type helpers) may load; their drivers and query runners may not.
  const drivers = typeormModules().map((path) => /\/typeorm\/driver\/[^/]+\/(\w+(Driver|QueryRunner))\.js$/.exec(path)?.[1]).filter(Boolean);
  t.deepEqual(drivers.sort(), ['AbstractSqliteDriver', 'AbstractSqliteQueryRunner', 'SqliteDriver', 'SqliteQueryRunner']);
  // Wherever npm placed them: under typeorm's own node_modules or beside it.
  const loaded = Object.keys(require.cache).filter((path) => /\/node_modules\/(glob|minimatch|@sqltools\/formatter|ansis)\//.test(path));
  t.deepEqual(loaded, []);

  // The API's document is built at its first request.
  const res = await fetch(`${app.url}/api/v1/openapi.json`);
  t.is(res.status, 200);
  t.truthy(((await res.json()) as { paths: Record<string, unknown> }).paths['/forms/{id}']);
});
