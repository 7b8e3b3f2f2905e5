import type { Database as SqliteConnection, RunResult, Statement } from 'sqlite3';

/** Statements kept prepared per connection; the least recently used past this are finalized. */
const MAX_STATEMENTS = 256;
/**
 * What is kept: queries, writes and transaction control. Anything else (EXPLAIN, PRAGMA, DDL) is prepared
 * for its call alone, as an EXPLAIN kept prepared locks the tables it names against DROP.
 */
const KEPT = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * SQL run through statements prepared once per connection and kept, by their text: `db.all(sql)` makes,
 * prepares and finalizes a new statement at every call, which on the hot paths cost more CPU than the
 * query itself (docs/benchmarks.md). A statement runs its calls one after another (sqlite3 queues them),
 * and each run steps to its end, so none holds a read transaction open between calls.
 */
export function cachedStatements(conn: () => SqliteConnection) {
  const statements = new Map<string, Statement>();
  const statement = (sql: string): Statement => {
    let stmt = statements.get(sql);
    if (stmt) {
      // Most recently used last: the first entry is the one to finalize when the cache is full.
      statements.delete(sql);
      statements.set(sql, stmt);
      return stmt;
    }
    stmt = conn().prepare(sql, (err: Error | null) => {
      if (err) statements.delete(sql);
    });
    statements.set(sql, stmt);
    if (statements.size > MAX_STATEMENTS) {
      const [oldest, old] = statements.entries().next().value as [string, Statement];
      statements.delete(oldest);
      old.finalize();
    }
    return stmt;
  };
  return {
    all: <T>(sql: string, params: readonly unknown[] = []) =>
      new Promise<T[]>((resolve, reject) => {
        const done = (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows));
        if (KEPT.test(sql)) statement(sql).all(params, done);
        else conn().all(sql, params, done);
      }),
    run: (sql: string, params: readonly unknown[] = []) =>
      new Promise<number>((resolve, reject) => {
        const stmt = KEPT.test(sql) ? statement(sql) : conn().prepare(sql);
        stmt.run(params, function (this: RunResult, err: Error | null) {
          if (err) reject(err);
          else resolve(this.changes);
        });
        // `run` steps once: a statement that yields rows would stay active, holding its read open and
        // any DROP on this connection locked, until reset (queued behind the run).
        if (KEPT.test(sql)) stmt.reset();
        else stmt.finalize();
      }),
    /** Finalizes every kept statement: SQLite refuses to close a connection that has some. */
    releaseAll: async () => {
      const all = [...statements.values()];
      statements.clear();
      await Promise.all(all.map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))));
    },
  };
}
