import { allSettledOrThrow } from '../errors';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { GroupCommit } from '../responses/group-commit';

/** An outcome, or a hand-back of an item that never ran (`unrun`: its lease is not an attempt). */
export type Settled = OutboxOutcome & { unrun?: boolean };

interface Settlement {
  item: OutboxItem;
  outcome: Settled;
  done: (error?: unknown) => void;
}

/**
 * The outbox worker's settlements (outbox-worker.ts): each outcome is queued and committed through the
 * instance's group commit, ahead of the submissions queued meanwhile (group-commit.ts); those queued during a
 * commit go together in the next one (docs/decisions.md, "Group commit"). Items touch rows of their own only,
 * so their statements are sent together (an adapter runs each kind as one statement: "Writes sent together").
 */
export class OutboxSettlements {
  private queue: Settlement[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly workerId: string,
    private readonly handlers: ReadonlyMap<string, OutboxHandler>,
    private readonly clock: Clock,
    private readonly commits: GroupCommit,
  ) {}

  /** Queues a settlement; resolves once the transaction holding it committed. */
  settle(item: OutboxItem, outcome: Settled): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, outcome, done: (e) => (e === undefined ? resolve() : reject(e)) });
      this.flushing ??= this.flush().finally(() => {
        this.flushing = null;
      });
    });
  }

  /** Resolves once nothing is queued or being committed. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /**
   * Commits queued settlements; those queued during a commit go together in the next one. When a shared
   * commit fails, each is tried alone, so one bad settlement cannot leave unrelated items to be sent again.
   */
  private async flush() {
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      try {
        await this.settleAll(batch);
        for (const s of batch) s.done();
      } catch (e) {
        if (batch.length === 1) {
          batch[0]!.done(e ?? new Error('settlement failed'));
          continue;
        }
        for (const s of batch) {
          await this.settleAll([s]).then(
            () => s.done(),
            (err) => s.done(err ?? new Error('settlement failed')),
          );
        }
      }
    }
  }

  private async settleAll(batch: Settlement[]) {
    const now = this.clock.now().toISOString();
    await this.commits.run(async (tx) => {
      const settleOne = async ({ item, outcome }: Settlement) => {
        const settlement =
          outcome.status === 'pending'
            ? ({ status: 'pending', nextAttemptAt: outcome.nextAttemptAt, error: outcome.error, unrun: outcome.unrun } as const)
            : ({ status: outcome.status, error: outcome.status === 'failed' ? outcome.error : null } as const);
        const [, settled] = await allSettledOrThrow([outcome.record?.(tx), tx.outbox.settle(item.id, this.workerId, settlement, now)] as const);
        if (settled && outcome.status !== 'pending' && this.handlers.get(item.kind)?.clearsPayload) {
          await tx.outbox.clearPayload(item.id);
        }
      };
      await allSettledOrThrow(batch.map(settleOne));
    }, { ahead: true });
  }
}
