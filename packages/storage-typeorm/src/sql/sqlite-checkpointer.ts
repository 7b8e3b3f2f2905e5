import type { DataSource } from 'typeorm';
import { sqliteSideConnection } from './sqlite-side-connection';

/*
 * WAL checkpoints on a connection of their own, outside the writer's commits (docs/benchmarks.md,
 * "WAL checkpoints outside the writer's commits").
 *
 * SQLite checkpoints by itself in the COMMIT that takes the write-ahead log past `wal_autocheckpoint` pages (1,000
 * by default): that commit copies the log into the database file and syncs both before it returns, while the
 * storage's one writer connection is held, so every group commit queued behind it waited for it. An indexer slice
 * writes more than 1,000 pages, so nearly each of its commits checkpointed. Here a second read-write connection
 * runs `PRAGMA wal_checkpoint(PASSIVE)` shortly after commits: a passive checkpoint takes no write lock, so the
 * writer's transactions go on meanwhile, and pages rewritten by several transactions in between are copied once.
 * The writer keeps an automatic checkpoint at WRITER_AUTOCHECKPOINT pages, far above what this leaves in the log,
 * as a bound should this connection fall behind. Durability is unchanged: a commit is in the log when it returns.
 */

/** The writer's own automatic checkpoint: only reached when the checkpointer falls behind (16 MB of log). */
export const WRITER_AUTOCHECKPOINT = 4000;
/**
 * The writer connection's page cache, in KiB (negative: SQLite's unit for a size): 4 MB, twice SQLite's default,
 * so an indexer slice's dirty pages fit. Grown only as pages are used, and never given back: the memory SQLite frees
 * stays with the process (glibc keeps it), so a larger cache is resident for good after the first burst of
 * submissions. 16 MB cost 14 MB of resident memory after the bench's ingest for no throughput the bench could tell
 * apart (docs/benchmarks.md, "Where the memory goes").
 */
export const WRITER_CACHE_SIZE = -4000;
/** How long after a commit the checkpoint runs: the commits of that time are copied together. */
const DELAY_MS = 250;

export interface SqliteCheckpointer {
  /** Says that a write transaction committed: a checkpoint follows within DELAY_MS (once for many commits). */
  committed(): void;
  /** Waits for a checkpoint under way and closes the connection. */
  close(): Promise<void>;
}

/** Opens the checkpointer beside the data source's connection; `null` for an in-memory database (no log). */
export function openSqliteCheckpointer(dataSource: DataSource, busyTimeoutMs: number): SqliteCheckpointer | null {
  // Read-write without CREATE: the writer made the file; a checkpoint needs to write the database file.
  const side = sqliteSideConnection(dataSource, 'readwrite', busyTimeoutMs);
  if (!side) return null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const checkpoint = async () => {
    const db = await side.get().catch(() => null);
    if (!db || closed) return;
    // A failed checkpoint (busy, I/O) leaves the log as it was: the next commit asks again, the writer's bound holds.
    await new Promise<void>((resolve) => db.all('PRAGMA wal_checkpoint(PASSIVE)', () => resolve()));
  };
  const run = () => {
    timer = null;
    if (closed) return;
    if (running) return void (again = true);
    running = checkpoint().finally(() => {
      running = null;
      if (again && !closed) {
        again = false;
        schedule();
      }
    });
  };
  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(run, DELAY_MS);
    timer.unref?.();
  };
  return {
    committed: schedule,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      await side.close();
    },
  };
}
