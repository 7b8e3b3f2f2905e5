import type { Database as SqliteConnection, RunResult } from 'sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import type { ReadWriteLock } from './rw-lock';

export type Row = Record<string, any>;

/** What the repositories run their hand-written SQL on: the root storage, or one transaction. */
export interface Db {
  /** Rows of a SELECT, or of a write with `RETURNING`. */
  all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a write and returns the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/**
 * SQL straight on the sqlite3 handle TypeORM opened. TypeORM's SqliteQueryRunner picks `run` or `all`
 * by the statement's first word, so it drops the rows of `UPDATE ... RETURNING` and the change count of
 * anything else; the handle gives both, and saves TypeORM's per-query overhead on the hot read paths.
 */
export function sqliteDb(dataSource: DataSource): Db {
  const conn = (): SqliteConnection => {
    const handle = (dataSource.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection;
    if (!handle) throw new Error('The SQLite data source is not initialized');
    return handle;
  };
  return {
    all: <T>(sql: string, params: readonly unknown[] = []) =>
      new Promise<T[]>((resolve, reject) => {
        conn().all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
      }),
    run: (sql, params = []) =>
      new Promise<number>((resolve, reject) => {
        conn().run(sql, params, function (this: RunResult, err: Error | null) {
          if (err) reject(err);
          else resolve(this.changes);
        });
      }),
  };
}

/** Every call holds the lock shared, so it never runs inside a transaction open on the same connection. */
export function lockedDb(db: Db, lock: ReadWriteLock): Db {
  return {
    all: (sql, params) => lock.shared(() => db.all(sql, params)),
    run: (sql, params) => lock.shared(() => db.run(sql, params)),
  };
}

/** SQL on one query runner: a transaction's, on PostgreSQL. */
export function queryRunnerDb(queryRunner: QueryRunner): Db {
  return {
    all: async (sql, params) => (await queryRunner.query(sql, params as unknown[], true)).records,
    run: async (sql, params) => (await queryRunner.query(sql, params as unknown[], true)).affected ?? 0,
  };
}

/** SQL on a pooled connection per call, on PostgreSQL. */
export function pooledDb(dataSource: DataSource): Db {
  const withRunner = async <T>(work: (qr: QueryRunner) => Promise<T>): Promise<T> => {
    const qr = dataSource.createQueryRunner();
    try {
      return await work(qr);
    } finally {
      await qr.release();
    }
  };
  return {
    all: (sql, params) => withRunner(async (qr) => (await qr.query(sql, params as unknown[], true)).records),
    run: (sql, params) => withRunner(async (qr) => (await qr.query(sql, params as unknown[], true)).affected ?? 0),
  };
}

/** Refuses calls once `isOpen()` is false: a transaction's storage used after it ended, or a closed storage. */
export function guardedDb(db: Db, isOpen: () => boolean, what: string): Db {
  const check = () => {
    if (!isOpen()) throw new Error(`${what} is no longer usable`);
  };
  return {
    all: async (sql, params) => (check(), db.all(sql, params)),
    run: async (sql, params) => (check(), db.run(sql, params)),
  };
}
