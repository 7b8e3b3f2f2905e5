import type { OutboxItem } from '../../domain/types';

/** What `OutboxRepository.claim` leases. */
export interface OutboxClaim {
  /** Who holds the lease; `settle` must name the same worker. */
  workerId: string;
  /** Items due at or before `now` whose lease is free or expired. */
  now: string;
  /** The lease end set on claimed items. */
  leaseUntil: string;
  /** At most this many items; 0 or less claims none. */
  limit: number;
  /** Only items of these kinds (an empty list claims none); all kinds when absent. */
  kinds?: string[];
}

/**
 * The durable outbox: deliveries (webhooks, mail, ...) recorded in the transaction that caused them, then
 * leased to workers, so a crash never loses one and any instance can deliver it.
 */
export interface OutboxRepository {
  /**
   * Adds a pending item. Call it in the transaction that records the cause, so neither exists alone.
   * @throws `FormloomError` CONFLICT when the id is taken; nothing is written.
   */
  enqueue(item: OutboxItem): Promise<void>;
  /**
   * Leases up to `limit` due pending items to `workerId`, earliest `next_attempt_at` first (ties by id), and
   * counts each lease as an attempt. An item is leased to one worker at a time: concurrent claims (also
   * from other processes on the same database) never return the same item while its lease runs.
   * @returns the leased items, `[]` when none is due.
   */
  claim(claim: OutboxClaim): Promise<OutboxItem[]>;
  /**
   * Ends an item leased by `workerId` as delivered or failed, or puts it back pending with a new due time;
   * the lease is released either way. `unrun`: the worker hands the item back without having started it
   * (its destination was busy), so the lease is not counted as an attempt (`attempts` goes back down by
   * one): an item's `attempts` counts the runs started, which handlers compare with the runs they recorded
   * (docs/plugins.md, "Deliveries that may have been sent").
   * @returns `false` when the item is not pending or not leased by `workerId` (nothing changes): a worker
   * whose lease was taken over cannot settle the item.
   */
  settle(
    id: string,
    workerId: string,
    outcome:
      | { status: 'delivered' | 'failed'; error?: string | null }
      | { status: 'pending'; nextAttemptAt: string; error?: string | null; unrun?: boolean },
    now: string,
  ): Promise<boolean>;
  /** The item, or `null` when there is none. */
  findById(id: string): Promise<OutboxItem | null>;
  /**
   * Empties the payload of a settled (delivered or failed) item: a sent mail's body holds secrets
   * (docs/security.md). A pending item, or an unknown id, changes nothing.
   */
  clearPayload(id: string): Promise<void>;
  /**
   * Deletes up to `limit` delivered or failed items settled (`updated_at`) before `before`, of `kinds`
   * when given. Pending items are never deleted.
   * @returns how many were deleted.
   */
  purge(query: { before: string; limit: number; kinds?: string[] }): Promise<number>;
  /**
   * Optional, on the root storage only: calls `wake` soon after another process committed an `enqueue`
   * (e.g. PostgreSQL `LISTEN/NOTIFY`), so its worker need not wait for its next poll. A wake may be spurious
   * or lost: it only shortens a wait, the poll still runs. Resolves with a function that stops listening.
   */
  listen?(wake: () => void): Promise<() => Promise<void>>;
  /**
   * Items an operator may have to act on (`formloom outbox list`, docs/cli.md): failed ones, and pending
   * ones whose last attempt failed (`last_error` set), of `kinds` when given, earliest due first.
   * @returns at most `limit` items.
   */
  listStuck(query: { limit: number; kinds?: string[] }): Promise<OutboxItem[]>;
  /**
   * An operator's retry: a pending or failed item becomes pending and due at `now`, its attempts kept.
   * @returns `false` (nothing changes) for an unknown or delivered item, or one a worker holds at `now`.
   */
  requeue(id: string, now: string): Promise<boolean>;
  /**
   * An operator's drop: deletes a pending or failed item.
   * @returns `false` (nothing changes) for an unknown or delivered item, or one a worker holds at `now`.
   */
  drop(id: string, now: string): Promise<boolean>;
}
