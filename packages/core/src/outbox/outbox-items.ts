import { injectable } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import { type IdGenerator, orderedId } from '../ports/id-generator';
import type { OutboxHandler } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';

export interface WorkerOptions {
  /** How often to look for due items when not woken by a new one (ms). */
  pollMs?: number;
  /** How long a claimed item stays leased to this worker; a crashed worker's items return after it (ms). */
  leaseMs?: number;
  /** Most items claimed at once. */
  batchSize?: number;
  /** Most items this worker holds (running or waiting for their destination) at once. */
  concurrency?: number;
  /** Most items of one destination running at once. */
  perDestination?: number;
  /** How often housekeeping (purging settled items, handlers' sweeps) runs, by the instance's clock (ms). */
  housekeepingMs?: number;
  /** Longest wait between polls while storage fails; the wait doubles from `pollMs` up to it (ms). */
  maxBackoffMs?: number;
}

/** A worker's lease on an item from its birth: the item is committed already leased to that worker. */
export interface BirthLease {
  workerId: string;
  leaseUntil: string;
}

/** A new outbox item due at `now`; with a birth lease it is leased to that worker, its first attempt counted. */
export function newOutboxItem(ids: IdGenerator, now: string, kind: string, payload: Record<string, unknown>, lease: BirthLease | null = null): OutboxItem {
  return {
    id: orderedId(ids, 'obx'),
    kind,
    payload,
    status: 'pending',
    attempts: lease ? 1 : 0,
    next_attempt_at: now,
    locked_by: lease?.workerId ?? null,
    locked_until: lease?.leaseUntil ?? null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/** What the worker of this instance offers to items born here (OutboxWorker). */
export interface BirthWorker {
  birthLease(kind: string, destination?: string | null): BirthLease | null;
  adopt(items: OutboxItem[]): void;
}

/**
 * Items leased at birth (docs/decisions.md, "Outbox items leased at birth"): an item committed by this
 * instance is leased to this instance's worker in the same transaction, and handed to it once committed,
 * so it starts without waiting for a claim, a second write on the database. Without a running worker (or
 * with a full one) an item is born unleased and claimed as before. After a crash between the commit and
 * the hand-over, a leased item waits for its lease to end and is claimed then: never lost, never twice.
 * One per instance (container scoped); the worker attaches itself when it starts.
 */
@injectable()
export class OutboxBirths {
  private worker: BirthWorker | null = null;

  attach(worker: BirthWorker) {
    this.worker = worker;
  }

  /**
   * A lease for an item of `kind` about to be committed, or `null` for an item to be claimed as usual. With its
   * `destination`, none while the worker holds as many of that destination's items as it may: the item would
   * only be put back (a write) when handed over.
   */
  lease(kind: string, destination?: string | null): BirthLease | null {
    return this.worker?.birthLease(kind, destination) ?? null;
  }

  /** Hands committed items to the worker, which takes those it leased (the others are claimed as usual). */
  adopt(items: readonly OutboxItem[]) {
    if (items.length) this.worker?.adopt([...items]);
  }
}

/** Runs `purge` in batches of 500 until one comes back short (at most 100): each statement stays short on a busy single-writer database. */
async function purgeInBatches(purge: (limit: number) => Promise<number>): Promise<void> {
  for (let i = 0; i < 100; i++) if ((await purge(500)) < 500) return;
}

/**
 * The outbox worker's housekeeping (`OutboxWorker.housekeep`): deletes delivered and failed items settled longer
 * ago than `retentionMs` and expired idempotency keys (docs/operations.md, "Outbox"), then runs the handlers'
 * sweeps (docs/security.md). A failing key purge or sweep is reported and does not stop the others.
 */
export async function housekeepOutbox(
  storage: Storage,
  retentionMs: number,
  handlers: readonly OutboxHandler[],
  now: Date,
  report: (where: string, e: unknown) => void,
): Promise<void> {
  const before = new Date(now.getTime() - retentionMs).toISOString();
  await purgeInBatches((limit) => storage.outbox.purge({ before, limit }));
  const expired = now.toISOString();
  await purgeInBatches((limit) => storage.idempotency.purgeExpired({ before: expired, limit })).catch((e) => report('formloom outbox housekeeping (idempotency keys)', e));
  for (const h of handlers) await h.sweep?.(now).catch((e) => report(`formloom outbox housekeeping (${h.kind})`, e));
}
