import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Storage } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { sqliteFile } from './config';

export type ClosableStorage = Storage & { close(): Promise<void> };

/**
 * Opens the database and brings its schema up to date. SQLite cannot create the folder of its
 * file, so a fresh machine gets it made here.
 */
export async function openMigratedStorage(databaseUrl: string): Promise<ClosableStorage> {
  const file = sqliteFile(databaseUrl);
  if (file !== null) mkdirSync(dirname(file), { recursive: true });
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
