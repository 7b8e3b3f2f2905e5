import type { Statement } from 'sqlite3';
import type { DataSource } from 'typeorm';
import type { Db, Prepared } from './db';
import { sqliteSideConnection } from './sqlite-side-connection';
import { cachedStatements } from './sqlite-statements';

/**
 * A second, read-only connection to the SQLite file for SELECTs made outside transactions.
 *
 * The storage's own connection runs one transaction at a time, and nothing else may run on it meanwhile
 * (it would join the transaction), so without this every read waits for the write transaction under way:
 * under a steady stream of submissions, the webhook worker's and the API's reads queue behind them. In
 * WAL mode a reader on its own connection sees every transaction committed before its statement began and
 * never waits for a writer. Each statement is its own read transaction, so a read that follows a write
 * the caller awaited sees that write.
 */
export interface SqliteReader {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  prepare<T>(sql: string): Prepared<T>;
  /** Waits for the reads under way, finalizes the prepared statements and closes the connection. */
  close(): Promise<void>;
}

/** Only plain SELECTs go to the reader: a `WITH ... UPDATE`, a write with RETURNING or a pragma stay on the writer. */
export const isPlainSelect = (sql: string) => /^\s*SELECT\b/i.test(sql);

/**
 * Opens the reader beside the data source's connection; `null` for an in-memory database (another
 * connection would open another, empty, database).
 */
export function openSqliteReader(dataSource: DataSource, busyTimeoutMs: number): SqliteReader | null {
  const side = sqliteSideConnection(dataSource, 'readonly', busyTimeoutMs);
  if (!side) return null;
  const open = new Set<Statement>();
  const running = new Set<Promise<unknown>>();
  const connection = side.get;
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    const done = () => running.delete(p);
    p.then(done, done);
    return p;
  };
  // Statements prepared once and kept (sqlite-statements.ts), made once the connection is open.
  let kept: ReturnType<typeof cachedStatements> | null = null;
  const all = <T>(sql: string, params: readonly unknown[] = []) =>
    track(connection().then((db) => (kept ??= cachedStatements(() => db)).all<T>(sql, params)));
  return {
    all,
    prepare<T>(sql: string): Prepared<T> {
      const stmt = connection().then((db) => {
        const s = db.prepare(sql);
        open.add(s);
        return s;
      });
      return {
        all: (params: readonly unknown[] = []) =>
          track(
            stmt.then(
              (s) =>
                new Promise<T[]>((resolve, reject) => {
                  if (!open.has(s)) return reject(new Error('The statement was released'));
                  s.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
                }),
            ),
          ),
        close: async () => {
          const s = await stmt.catch(() => null);
          if (s && open.delete(s)) await new Promise<void>((resolve) => s.finalize(() => resolve()));
        },
      };
    },
    async close() {
      while (running.size) await Promise.allSettled([...running]);
      await Promise.all([...open].map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))));
      open.clear();
      await kept?.releaseAll();
      kept = null;
      await side.close();
    },
  };
}

/** `db` with its plain SELECTs sent to `reader` (outside the lock `db` takes for the writer connection). */
export function withReader(db: Db, reader: SqliteReader | null): Db {
  if (!reader) return db;
  return {
    all: (sql, params) => (isPlainSelect(sql) ? reader.all(sql, params) : db.all(sql, params)),
    run: (sql, params) => db.run(sql, params),
    prepare: <T>(sql: string) => (isPlainSelect(sql) ? reader.prepare<T>(sql) : db.prepare<T>(sql)),
  };
}
