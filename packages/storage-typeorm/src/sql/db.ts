import type { Database as SqliteConnection, Statement } from 'sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import { FormloomError } from '@formloom/core';
import type { ReadWriteLock } from './rw-lock';
import { isForeignKeyViolation } from './dialect';
import { cachedStatements } from './sqlite-statements';
import { copyOut, type CopyPool } from './pg-copy';

export type Row = Record<string, any>;

/** What the repositories run their hand-written SQL on: the root storage, or one transaction. */
export interface Db {
  /** Rows of a SELECT, or of a write with `RETURNING`. */
  all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a write and returns the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** One SELECT run many times; `close()` releases it. */
  prepare<T = Row>(sql: string): Prepared<T>;
  /**
   * PostgreSQL outside a transaction only: the bytes of `COPY (select) TO STDOUT (FORMAT binary)` as they
   * arrive (pg-copy.ts). Absent where it does not apply; callers then read with `all`.
   */
  copyOut?(select: string): AsyncIterable<Buffer>;
}

export interface Prepared<T = Row> {
  all(params?: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** Where preparing buys nothing (PostgreSQL through TypeORM): each run is a plain query. */
function unprepared<T>(db: Pick<Db, 'all'>, sql: string): Prepared<T> {
  return { all: (params) => db.all<T>(sql, params), close: async () => undefined };
}

/** The sqlite3 handle's Db, and the statements it has prepared and not yet released. */
export interface SqliteDb extends Db {
  /** Finalizes every open statement: SQLite refuses to close a connection that has some. */
  releaseAll(): Promise<void>;
}

/**
 * SQL straight on the sqlite3 handle TypeORM opened. TypeORM's SqliteQueryRunner picks `run` or `all`
 * by the statement's first word, so it drops the rows of `UPDATE ... RETURNING` and the change count of
 * anything else; the handle gives both, and saves TypeORM's per-query overhead on the hot read paths.
 */
export function sqliteDb(dataSource: DataSource): SqliteDb {
  const conn = (): SqliteConnection => {
    const handle = (dataSource.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection;
    if (!handle) throw new Error('The SQLite data source is not initialized');
    return handle;
  };
  const open = new Set<Statement>();
  // Plain calls run on statements prepared once and kept (sqlite-statements.ts).
  const kept = cachedStatements(conn);
  const finalize = (stmt: Statement) =>
    new Promise<void>((resolve) => {
      if (!open.delete(stmt)) return resolve();
      stmt.finalize(() => resolve());
    });
  return {
    /**
     * A statement prepared once: each run then goes to sqlite3's thread and back in one trip. `db.all`
     * prepares on every call and needs the event loop between preparing and running, so a run issued
     * ahead of busy JavaScript (the export's next page) would wait for it instead of overlapping it.
     */
    prepare: <T>(sql: string): Prepared<T> => {
      const stmt = conn().prepare(sql);
      open.add(stmt);
      return {
        all: (params: readonly unknown[] = []) =>
          new Promise<T[]>((resolve, reject) => {
            if (!open.has(stmt)) return reject(new Error('The statement was released'));
            stmt.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
          }),
        close: () => finalize(stmt),
      };
    },
    releaseAll: async () => {
      await Promise.all([...open].map(finalize));
      await kept.releaseAll();
    },
    all: kept.all,
    run: kept.run,
  };
}

/** Every call holds the lock shared, so it never runs inside a transaction open on the same connection. */
export function lockedDb(db: Db, lock: ReadWriteLock): Db {
  return {
    all: (sql, params) => lock.shared(() => db.all(sql, params)),
    run: (sql, params) => lock.shared(() => db.run(sql, params)),
    prepare: <T>(sql: string) => {
      const stmt = db.prepare<T>(sql);
      return { all: (params?: readonly unknown[]) => lock.shared(() => stmt.all(params)), close: () => stmt.close() };
    },
    ...(db.copyOut && { copyOut: (select: string) => lockedCopy(db.copyOut!.bind(db), lock, select) }),
  };
}

/** A copy holds the lock's shared side from its start to its end, as one long query would. */
async function* lockedCopy(copy: (select: string) => AsyncIterable<Buffer>, lock: ReadWriteLock, select: string) {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  await new Promise<void>((granted) => void lock.shared(() => (granted(), released)));
  try {
    yield* copy(select);
  } finally {
    release();
  }
}

/**
 * SQL on one query runner: a transaction's, on PostgreSQL. Callers send a transaction's statements together
 * (a group commit's works, an insert with its count); they go to the connection one at a time, in the order
 * they were sent, each once the one before it settled. pg would queue them itself the same way, but handing
 * pg a query while its connection runs another is deprecated and goes away in pg 9 (docs/decisions.md).
 */
export function queryRunnerDb(queryRunner: QueryRunner): Db {
  const inTurn = oneAtATime();
  const query = (sql: string, params?: readonly unknown[]) => inTurn(() => queryRunner.query(sql, params as unknown[], true));
  return {
    all: async (sql, params) => (await query(sql, params)).records,
    run: async (sql, params) => (await query(sql, params)).affected ?? 0,
    prepare(sql) {
      return unprepared(this, sql);
    },
  };
}

/** Runs each call after every call made before it settled (failed ones too), in the order they were made. */
export function oneAtATime(): <T>(call: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(call: () => Promise<T>) => {
    const next = last.then(call, call);
    last = next.catch(() => undefined);
    return next;
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
  // Straight on the driver's pg pool once it exists: a query runner per call (made, queried, released)
  // cost more CPU than many of the queries (docs/benchmarks.md). Errors are pg's own (codes unchanged).
  const pool = (): PgPool | undefined => (dataSource.driver as unknown as { master?: PgPool }).master;
  return {
    all: async (sql, params) => {
      const p = pool();
      if (p) return (await p.query(sql, params as unknown[])).rows;
      return withRunner(async (qr) => (await qr.query(sql, params as unknown[], true)).records);
    },
    run: async (sql, params) => {
      const p = pool();
      if (p) return (await p.query(sql, params as unknown[])).rowCount ?? 0;
      return withRunner(async (qr) => (await qr.query(sql, params as unknown[], true)).affected ?? 0);
    },
    prepare(sql) {
      return unprepared(this, sql);
    },
    copyOut: (select: string) => {
      const p = pool();
      if (!p) throw new Error('The PostgreSQL pool is not connected yet');
      return copyOut(p, select);
    },
  };
}

/** The part of pg's Pool used here. */
interface PgPool extends CopyPool {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
}

/**
 * A write that names a parent row deleted meanwhile (a team, a form, a session: the request read it before
 * another one deleted it) is the 404 the request would have had a moment later, not a 500
 * (docs/decisions.md "Races with a delete"). The transaction it ran in is rolled back as for any error.
 */
const parentGone = (err: unknown): never => {
  if (isForeignKeyViolation(err)) throw new FormloomError('NOT_FOUND', 'Not found: it was deleted while this request ran');
  throw err;
};

/**
 * Refuses calls once `isOpen()` is false (a transaction's storage used after it ended, or a closed
 * storage), and answers a write whose parent is gone with NOT_FOUND.
 */
export function guardedDb(db: Db, isOpen: () => boolean, what: string): Db {
  const check = () => {
    if (!isOpen()) throw new Error(`${what} is no longer usable`);
  };
  return {
    all: async <T>(sql: string, params?: readonly unknown[]) => (check(), db.all<T>(sql, params).catch(parentGone)),
    run: async (sql, params) => (check(), db.run(sql, params).catch(parentGone)),
    prepare: <T>(sql: string) => {
      check();
      const stmt = db.prepare<T>(sql);
      return { all: async (params?: readonly unknown[]) => (check(), stmt.all(params)), close: () => stmt.close() };
    },
    ...(db.copyOut && { copyOut: (select: string) => guardedCopy(db.copyOut!.bind(db), check, select) }),
  };
}

/** A copy checks once, before it starts; a copy under way ends as its connection does. */
async function* guardedCopy(copy: (select: string) => AsyncIterable<Buffer>, check: () => void, select: string) {
  check();
  yield* copy(select);
}
