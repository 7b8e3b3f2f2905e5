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
  /** In a transaction's scope, what it runs just before committing; `null` on the root. */
  readonly beforeCommit: BeforeCommit | null;
  /**
   * Says that `count` responses were queued for the analytics indexer (repositories/background-indexer.ts): it is
   * told once the transaction they were queued in has committed (at once when none is open).
   */
  readonly queued: (count: number) => void;
}

/** Work a transaction defers to its end, once (e.g. the rollup of every response it inserted). */
export interface CommitTask {
  flush(db: Db): Promise<void>;
}

/**
 * The deferred work of one transaction, run in the order first asked for, just before it commits. A task
 * that fails fails the transaction, which is then rolled back like any other.
 */
export class BeforeCommit {
  private readonly tasks = new Map<unknown, CommitTask>();

  /** The task under `key`, made by `make` when this transaction has none yet. */
  task<T extends CommitTask>(key: unknown, make: () => T): T {
    let task = this.tasks.get(key) as T | undefined;
    if (!task) this.tasks.set(key, (task = make()));
    return task;
  }

  async run(db: Db): Promise<void> {
    for (const task of this.tasks.values()) await task.flush(db);
  }
}

/** One storage's statement cache, keyed by the repository's builder function. */
export function statementCache(d: Dialect): Scope['statements'] {
  const built = new Map<(d: Dialect) => unknown, unknown>();
  return <T>(build: (d: Dialect) => T): T => {
    if (!built.has(build)) built.set(build, build(d));
    return built.get(build) as T;
  };
}
