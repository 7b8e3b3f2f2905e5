import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { BlobStore, Storage } from '@formloom/core';
import { createDataSource, pendingMigrations, runMigrations } from './data-source';
import { createTypeormStorage } from './storage';
import { createPostgresBlobStore } from './postgres-blob-store';

export type ClosableStorage = Storage & {
  close(): Promise<void>;
  /**
   * `null` when the database answers and has every migration applied, else why not (for `/readyz`,
   * docs/operations.md). Never throws.
   */
  notReadyReason(): Promise<string | null>;
  /**
   * The installation's value of `name`: `initial` is stored when there is none yet (the first start), and
   * whatever is stored is returned, so every instance sharing the database sees the first one's value.
   */
  instanceSetting(name: string, initial: string): Promise<string>;
  /**
   * A blob store in this database, on its connections (`createPostgresBlobStore`): what every instance on the
   * database shares with nothing else to run (docs/scaling.md).
   * @throws on SQLite (use `@formloom/blob-store-file` there).
   */
  postgresBlobStore(): BlobStore;
};

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

export interface OpenMigratedStorageOptions {
  /**
   * Applies the pending migrations elsewhere, e.g. in a child process (the self-hosted server: docs/operations.md,
   * "Memory"): called with their names when the migrations table lacks some, and the open fails with its error.
   * This process then loads no migration code. Absent: they run here, as before.
   */
  migrate?: (pending: string[]) => Promise<void>;
}

/**
 * Opens the database and brings its schema up to date: what the `formloom` command and the self-hosted app
 * do at start. SQLite cannot create the folder of its file, so a fresh machine gets it made here (owner-only,
 * with `prepareSqliteFile`).
 */
export async function openMigratedStorage(databaseUrl: string, options: OpenMigratedStorageOptions = {}): Promise<ClosableStorage> {
  const file = sqliteFile(databaseUrl);
  if (file !== null) prepareSqliteFile(file);
  const migrate = options.migrate;
  const ds = createDataSource(databaseUrl, { migrations: !migrate });
  const storage = createTypeormStorage(ds);
  try {
    if (!migrate) await runMigrations(ds);
    else {
      const pending = await pendingMigrations(ds);
      if (pending.length > 0) {
        await migrate(pending);
        const left = await pendingMigrations(ds);
        if (left.length > 0) throw new Error(`Database migrations still pending after migrating: ${left.join(', ')}`);
      }
    }
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
  const postgres = !databaseUrl.startsWith('sqlite:');
  return Object.assign(storage, {
    async instanceSetting(name: string, initial: string): Promise<string> {
      const [a, b] = postgres ? ['$1', '$2'] : ['?', '?'];
      await ds.query(`INSERT INTO instance_settings (name, value) VALUES (${a}, ${b}) ON CONFLICT (name) DO NOTHING`, [name, initial]);
      const rows = (await ds.query(`SELECT value FROM instance_settings WHERE name = ${a}`, [name])) as Array<{ value: string }>;
      return rows[0]!.value;
    },
    postgresBlobStore: () => createPostgresBlobStore(ds),
    async notReadyReason(): Promise<string | null> {
      if (!ds.isInitialized) return 'database closed';
      try {
        // Reads the migrations table: what it lacks is what another instance of a newer version applied or not.
        return (await pendingMigrations(ds)).length > 0 ? 'database migrations pending' : null;
      } catch (e) {
        return `database unreachable: ${e instanceof Error ? e.message : String(e)}`;
      }
    },
  });
}
