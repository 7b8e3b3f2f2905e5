import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createDataSource, loadDriver, type DriverName } from '../../src';

/**
 * A host without the driver: `require` from an empty folder outside the workspace finds no node_modules,
 * which is what a PostgreSQL-only host sees for sqlite3 (and a SQLite-only one for pg).
 */
function requireFromEmptyHost(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-host-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const req = createRequire(join(dir, 'host.js'));
  return (name: DriverName) => req(name);
}

test('a sqlite: URL without sqlite3 installed names the package to install', (t) => {
  const requireDriver = requireFromEmptyHost(t);
  t.throws(() => createDataSource('sqlite:/tmp/never.sqlite', { requireDriver }), {
    message: 'The sqlite3 driver is not installed; a sqlite: database URL needs it: npm install sqlite3',
  });
});

test('a postgres:// URL without pg installed names the package to install', (t) => {
  const requireDriver = requireFromEmptyHost(t);
  t.throws(() => createDataSource('postgres://app@db.example/forms', { requireDriver }), {
    message: 'The pg driver is not installed; a postgres:// database URL needs it: npm install pg',
  });
});

test('a PostgreSQL-only host never loads sqlite3, and a SQLite-only one never loads pg', (t) => {
  const loaded: string[] = [];
  const requireDriver = (name: DriverName) => {
    loaded.push(name);
    return require(name) as unknown;
  };
  createDataSource('postgres://app@db.example/forms', { requireDriver });
  t.deepEqual(loaded, ['pg']);
  createDataSource('sqlite::memory:', { requireDriver });
  t.deepEqual(loaded, ['pg', 'sqlite3']);
});

test('a driver that is installed but fails to load keeps its own error', (t) => {
  // e.g. sqlite3 compiled for another Node: its dependency or binding is what is missing, not sqlite3.
  const broken = Object.assign(new Error("Cannot find module 'bindings'"), { code: 'MODULE_NOT_FOUND' });
  t.throws(() => loadDriver('sqlite3', () => { throw broken; }), { is: broken });
  t.is(loadDriver('pg'), require('pg'));
});
