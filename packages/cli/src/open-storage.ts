import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Storage } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { sqliteFile } from './config';

export type ClosableStorage = Storage & { close(): Promise<void> };

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
 * Opens the database and brings its schema up to date. SQLite cannot create the folder of its
 * file, so a fresh machine gets it made here.
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
