import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Storage } from '@formloom/core';
import { createDataSource, runMigrations } from './data-source';
import { createTypeormStorage } from './storage';

export type ClosableStorage = Storage & { close(): Promise<void> };

/** `FORMLOOM_DATABASE_URL`'s default (docs/configuration.md): a SQLite file in `./data`. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/formloom.sqlite';

/** The file of a `sqlite:` URL, or `null` for other databases and in-memory SQLite. */
export function sqliteFile(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  let path = url.slice('sqlite:'.length);
  // `sqlite://data/x.sqlite` is a common spelling of `sqlite:data/x.sqlite`.
  if (path.startsWith('//')) path = path.slice(2);
  return path === '' || path === ':memory:' ? null : path;
}

/**
 * The database URL an operator gave (`FORMLOOM_DATABASE_URL`; the default when absent) with a relative SQLite
 * path resolved against `cwd`, so it does not depend on where the driver resolves it.
 * @throws for a URL that is neither `sqlite:<path>` nor `postgres://...` (the message names the variable).
 */
export function resolveDatabaseUrl(url: string | undefined, cwd = process.cwd()): string {
  const given = url === undefined || url.trim() === '' ? DEFAULT_DATABASE_URL : url;
  const file = sqliteFile(given);
  if (file !== null) return `sqlite:${resolve(cwd, file)}`;
  if (given.startsWith('sqlite:') || /^postgres(ql)?:\/\//.test(given)) return given;
  throw new Error(`FORMLOOM_DATABASE_URL: expected sqlite:<path> or postgres://..., got ${JSON.stringify(given)}`);
}

/**
 * Makes the SQLite file owner-only before sqlite opens it (docs/security.md): a new folder gets 0700 and
 * the file 0600, and a file left readable by an older version is tightened. SQLite gives its -wal, -shm
 * and -journal files the permissions of the database file; any left over from before are tightened too.
 */
export function prepareSqliteFile(file: string) {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(f, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/**
 * Opens the database and brings its schema up to date: what the `formloom` command and the self-hosted app
 * do at start. SQLite cannot create the folder of its file, so a fresh machine gets it made here (owner-only,
 * with `prepareSqliteFile`).
 */
export async function openMigratedStorage(databaseUrl: string): Promise<ClosableStorage> {
  const file = sqliteFile(databaseUrl);
  if (file !== null) prepareSqliteFile(file);
  const ds = createDataSource(databaseUrl);
  const storage = createTypeormStorage(ds);
  try {
    await runMigrations(ds);
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
  return storage;
}
