import type { Database as SqliteConnection, RunResult, Statement } from 'sqlite3';

/** Statements kept prepared per connection; the least recently used past this are finalized. */
const MAX_STATEMENTS = 256;
/**
 * What is kept: queries, writes and transaction control. Anything else (EXPLAIN, PRAGMA, DDL) is prepared
 * for its call alone, as an EXPLAIN kept prepared locks the tables it names against DROP.
 */
const KEPT = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * Statements prepared per SQL text: calls of one SQL that overlap (a group commit's inserts, a batch of
 * webhook settlements) run on as many statements, up to this many. One sqlite3 statement runs its calls
 * one after another, each started from the main thread once the last one finished, so a batch of N
 * identical writes cost N round trips through the event loop while the transaction was held; on several
 * statements they are all handed to the thread pool at once (docs/benchmarks.md, "Submissions and webhooks"). Calls of
 * one SQL were never ordered against calls of another; now calls of one SQL that overlap are not either.
 */
const STATEMENTS_PER_SQL = 4;

interface Pooled {
  stmt: Statement;
  /** Calls handed to it and not yet answered. */
  busy: number;
  /**
   * How to fail those calls: sqlite3 never answers the calls of a statement whose preparation failed (a table
   * missing: a migration not run yet or undone), so its error is handed to them from the prepare callback.
   */
  readonly failing: Set<(err: Error) => void>;
}

/**
 * SQL run through statements prepared once per connection and kept, by their text: `db.all(sql)` makes,
 * prepares and finalizes a new statement at every call, which on the hot paths cost more CPU than the
 * query itself (docs/benchmarks.md). Each run steps to its end, so none holds a read transaction open
 * between calls.
 */
export function cachedStatements(conn: () => SqliteConnection) {
  const statements = new Map<string, Pooled[]>();
  const finalizeAll = (pool: Pooled[]) => pool.forEach((p) => p.stmt.finalize());
  const statement = (sql: string): Pooled => {
    let pool = statements.get(sql);
    if (pool) {
      // Most recently used last: the first entry is the one to finalize when the cache is full.
      statements.delete(sql);
      statements.set(sql, pool);
      let least = pool[0]!;
      for (const p of pool) if (p.busy < least.busy) least = p;
      if (least.busy === 0 || pool.length >= STATEMENTS_PER_SQL) return least;
    } else {
      pool = [];
      statements.set(sql, pool);
      if (statements.size > MAX_STATEMENTS) {
        const [oldest, old] = statements.entries().next().value as [string, Pooled[]];
        statements.delete(oldest);
        finalizeAll(old);
      }
    }
    const pooled: Pooled = { stmt: null as unknown as Statement, busy: 0, failing: new Set() };
    const owner = pool;
    pooled.stmt = conn().prepare(sql, (err: Error | null) => {
      if (!err) return;
      for (const fail of pooled.failing) fail(err);
      pooled.failing.clear();
      const i = owner.indexOf(pooled);
      if (i >= 0) owner.splice(i, 1);
      if (owner.length === 0 && statements.get(sql) === owner) statements.delete(sql);
    });
    pool.push(pooled);
    return pooled;
  };
  return {
    all: <T>(sql: string, params: readonly unknown[] = []) =>
      new Promise<T[]>((resolve, reject) => {
        if (!KEPT.test(sql)) return void conn().all(sql, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
        const p = statement(sql);
        p.busy++;
        const fail = (err: Error) => (p.busy--, reject(err));
        p.failing.add(fail);
        p.stmt.all(params, (err: Error | null, rows: T[]) => {
          p.failing.delete(fail);
          p.busy--;
          if (err) {
            // A statement that failed mid-run (SQLITE_BUSY after busy_timeout: another process held the write
            // lock) stays pending until reset, and while it is SQLite refuses to commit any transaction of this
            // connection. A run that ends well has stepped to its end.
            p.stmt.reset();
            reject(err);
          } else resolve(rows);
        });
      }),
    run: (sql: string, params: readonly unknown[] = []) =>
      new Promise<number>((resolve, reject) => {
        const kept = KEPT.test(sql);
        const p = kept ? statement(sql) : { stmt: conn().prepare(sql), busy: 0, failing: new Set<(err: Error) => void>() };
        p.busy++;
        const fail = (err: Error) => (p.busy--, reject(err));
        p.failing.add(fail);
        p.stmt.run(params, function (this: RunResult, err: Error | null) {
          p.failing.delete(fail);
          p.busy--;
          if (err) reject(err);
          else resolve(this.changes);
        });
        // `run` steps once: a statement that yields rows would stay active, holding its read open and
        // any DROP on this connection locked, until reset (queued behind the run).
        if (kept) p.stmt.reset();
        else p.stmt.finalize();
      }),
    /** Finalizes every kept statement: SQLite refuses to close a connection that has some. */
    releaseAll: async () => {
      const all = [...statements.values()].flat();
      statements.clear();
      await Promise.all(all.map((p) => new Promise<void>((resolve) => p.stmt.finalize(() => resolve()))));
    },
  };
}
