import { waitFor } from '@formloom/core/testing';
import type { PgClient } from '../../src/testing-templates';

/*
 * What the PostgreSQL lock-order tests share (test/indexes/lock-order.ts, form-delete-races.ts): a second
 * connection plays a writer statement by statement, and each step waits for the lock the storage's call is
 * seen waiting for in `pg_locks`.
 */

/** An indexer that never runs by itself, so a response stays queued until the test's connection claims it. */
export const IDLE_INDEXER = { debounceMs: 3_600_000, intervalMs: 3_600_000 };

/** The locks other backends of this database wait for (`pg_locks`), as `locktype:relation` strings. */
export async function waitingLocks(client: PgClient): Promise<string[]> {
  const { rows } = await client.query(
    `SELECT l.locktype, c.relname FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid LEFT JOIN pg_class c ON c.oid = l.relation ` +
      `WHERE NOT l.granted AND a.datname = current_database() AND l.pid <> pg_backend_pid()`,
  );
  return rows.map((r) => `${r.locktype}:${r.relname ?? ''}`);
}

/** The locks another backend waits for, once it waits for one (`what` names that backend in a time-out). */
export const lockWaits = (client: PgClient, what: string): Promise<string[]> =>
  waitFor(async () => {
    const w = await waitingLocks(client);
    return w.length > 0 ? w : null;
  }, { what });
