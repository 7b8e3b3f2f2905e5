import type { Db } from './sql/db';
import type { Dialect } from './sql/dialect';

/**
 * What a repository runs on: the root storage or one transaction. Each repository builds its own SQL with
 * `statements(build)`, so this file knows no repository (a repository module imports this one, never the
 * reverse).
 */
export interface Scope {
  readonly db: Db;
  readonly d: Dialect;
  /**
   * The statements `build` makes for this database: built on first use, then shared by the storage and
   * every transaction it opens (the SQL that does not depend on a call's arguments is built once).
   */
  statements<T>(build: (d: Dialect) => T): T;
  /** Runs `work` in a transaction: a new one from the root, the current one inside a transaction. */
  atomic<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/** One storage's statement cache, keyed by the repository's builder function. */
export function statementCache(d: Dialect): Scope['statements'] {
  const built = new Map<(d: Dialect) => unknown, unknown>();
  return <T>(build: (d: Dialect) => T): T => {
    if (!built.has(build)) built.set(build, build(d));
    return built.get(build) as T;
  };
}
