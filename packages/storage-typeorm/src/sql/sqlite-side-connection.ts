import type { Database as SqliteConnection } from 'sqlite3';
import type { DataSource } from 'typeorm';

/*
 * A second connection to the data source's SQLite file, beside the storage's writer: the reader's
 * (sqlite-reader.ts, read-only) and the checkpointer's (sqlite-checkpointer.ts, read-write, never creating).
 */

export interface SqliteSideConnection {
  /** The connection, opened at the first call with the data source's busy time-out; a failed open stays failed. */
  get(): Promise<SqliteConnection>;
  /** Closes the connection if it was opened; a later `get` opens a new one. */
  close(): Promise<void>;
}

/**
 * Opens nothing yet; `null` for an in-memory database (another connection would open another, empty,
 * database) or a data source without the sqlite3 driver.
 */
export function sqliteSideConnection(dataSource: DataSource, mode: 'readonly' | 'readwrite', busyTimeoutMs: number): SqliteSideConnection | null {
  const file = (dataSource.options as { database?: unknown }).database;
  if (typeof file !== 'string' || file === ':memory:' || file === '') return null;
  const driver = (dataSource.driver as unknown as { sqlite?: typeof import('sqlite3') }).sqlite;
  if (!driver) return null;
  const flags = mode === 'readonly' ? driver.OPEN_READONLY : driver.OPEN_READWRITE;
  let opening: Promise<SqliteConnection> | null = null;
  return {
    get: () =>
      (opening ??= new Promise<SqliteConnection>((resolve, reject) => {
        const db: SqliteConnection = new driver.Database(file, flags, (err) => {
          if (err) return reject(err);
          db.configure('busyTimeout', busyTimeoutMs);
          resolve(db);
        });
      })),
    async close() {
      const db = opening ? await opening.catch(() => null) : null;
      opening = null;
      if (db) await new Promise<void>((resolve) => db.close(() => resolve()));
    },
  };
}
