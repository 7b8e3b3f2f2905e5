import { inject, injectable } from 'tsyringe';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';

/** Most submissions one transaction commits (a bound on the time one batch holds the write lock). */
const MAX_BATCH = 128;

interface Pending {
  work: (tx: Storage) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit (docs/decisions.md, "Group commit"): a write that arrives while another transaction of this
 * instance runs waits for it, then commits together with every other write that arrived meanwhile, in one
 * transaction. Each caller's promise settles only once the transaction holding its work committed, so an
 * answer sent after it is never lost to a crash. A write arriving when nothing runs starts at once.
 *
 * The works of a batch run together on one transaction, their statements in the order they reach the
 * connection, which runs them one at a time: a conditional write (a response limit's claim, a unique
 * visitor's insert) is one statement, so it sees the ones before it exactly as with a transaction each.
 * When one throws, the whole transaction rolls back and every work of the batch runs again in a
 * transaction of its own: the failing one fails alone. So a work must touch nothing but `tx` (it may run
 * twice), and must not depend on another work of its batch having ended.
 *
 * One per instance (container scoped): submissions and the outbox worker's settlements share it. Works
 * queued `ahead` (the worker's settlements, one work per batch of them) commit before the works queued
 * meanwhile, in a transaction of their own: a settlement then waits for the transaction under way, not also
 * for the next batch of up to 128 submissions (a chat delivery keeps its slot until its settlement committed:
 * docs/decisions.md, Integrations, "Through a kill -9"); at most one such transaction runs between batches.
 */
@injectable()
export class GroupCommit {
  private queue: Pending[] = [];
  private ahead: Pending[] = [];
  private running = false;

  constructor(@inject(TOKENS.Storage) private readonly storage: Pick<Storage, 'transaction'>) {}

  run<T>(work: (tx: Storage) => Promise<T>, options: { ahead?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (options.ahead ? this.ahead : this.queue).push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain() {
    this.running = true;
    try {
      while (this.ahead.length || this.queue.length) {
        await this.commit((this.ahead.length ? this.ahead : this.queue).splice(0, MAX_BATCH));
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(batch: Pending[]) {
    if (batch.length === 1) return this.alone(batch[0]!);
    let results: unknown[];
    try {
      results = await this.storage.transaction(async (tx) => {
        // All the works' statements are sent at once (the connection runs them in turn, without waiting
        // for this process between them); every work settles before the transaction ends either way.
        const settled = await Promise.allSettled(batch.map((p) => p.work(tx)));
        const failed = settled.find((r) => r.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
        return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
      });
    } catch {
      // Rolled back as a whole: each again on its own, so only the failing work fails.
      for (const p of batch) await this.alone(p);
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]));
  }

  private async alone(p: Pending) {
    try {
      p.resolve(await this.storage.transaction(p.work));
    } catch (err) {
      p.reject(err);
    }
  }
}
