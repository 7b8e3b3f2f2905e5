import type { OutboxItem } from '../domain/types';
import type { Storage } from './storage';

/**
 * How an outbox item ended: done, failed for good, or to be tried again at `nextAttemptAt`. `record`
 * writes what the handler wants kept about the attempt; the worker runs it with the item's settlement in
 * one transaction per batch, so a busy single-writer database sees one write per batch, not three per item.
 */
export type OutboxOutcome = (
  | { status: 'delivered' }
  | { status: 'failed'; error: string }
  | { status: 'pending'; nextAttemptAt: string; error: string | null }
) & {
  record?: (tx: Storage) => Promise<void>;
  /**
   * Keep the destination's slot until this outcome is recorded: set when a repeat of the item after a crash
   * would reach the receiver as a second copy it cannot recognise (a chat message). Other items free their
   * slot as soon as they ran.
   */
  holdSlot?: boolean;
};

/**
 * Carries out the durable outbox items of one kind (webhook deliveries, mails, clean-ups, or a plugin's
 * own kind). The worker claims an item with a lease, calls `handle` once, and settles the item with the
 * outcome. A handler that throws is treated as a retryable failure (the retry schedule in
 * docs/responses-and-webhooks.md), so `handle` only needs to return an outcome for what it decides itself.
 * One handler per kind in an instance: a second one for the same kind is refused at start-up.
 */
export interface OutboxHandler {
  /** The item kind this handler carries out, e.g. `mail`; a plugin's kinds start with its name. */
  readonly kind: string;
  /** Carries out `item` (its `attempts` already counts this attempt). */
  handle(item: OutboxItem): Promise<OutboxOutcome>;
  /**
   * Where the item goes (e.g. a webhook's host), or `null`: the worker runs at most `perDestination`
   * items of one destination at once, so one slow receiver cannot hold up the others.
   */
  destination?(item: OutboxItem): Promise<string | null>;
  /** Periodic clean-up run by the worker's housekeeping (e.g. sweeping abandoned uploads). */
  sweep?(now: Date): Promise<void>;
  /** Whether a settled item's payload is emptied (it holds secrets, e.g. a mail's body). */
  readonly clearsPayload?: boolean;
}
