import type { OutboxItem } from '../domain/types';
import type { OutboxOutcome } from '../ports/outbox-handler';

/** Seconds before each retry: about a day in all, then the item fails for good. */
export const RETRY_DELAYS_S = [10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800, 28800];

/** When to try again after `attempts` failed attempts, with ±20% jitter; `null` once retries are spent. */
export function nextRetryAt(now: Date, attempts: number): string | null {
  const delay = RETRY_DELAYS_S[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + delay * (0.8 + Math.random() * 0.4) * 1000).toISOString();
}

/**
 * The outcome of a failed attempt: pending until the next retry while the schedule lasts, failed for good
 * after it (or at once when `retry` is false). The one rule every handler and the worker share.
 */
export function failedAttempt(
  now: Date,
  attempts: number,
  error: string,
  options: { retry?: boolean; record?: OutboxOutcome['record'] } = {},
): OutboxOutcome {
  const next = options.retry === false ? null : nextRetryAt(now, attempts);
  const extra = options.record ? { record: options.record } : {};
  return next ? { status: 'pending', nextAttemptAt: next, error, ...extra } : { status: 'failed', error, ...extra };
}

export const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A delivery or mail that did not go out is an operator's business (docs/operations.md "Outbox"): the warn
 * line of an attempt, with the item's kind, id, attempt and next retry (null once it failed for good) and
 * the error, never its payload; null when it was delivered. `formloom outbox list` shows the same items.
 */
export function notSentWarning(item: OutboxItem, outcome: OutboxOutcome): [string, Record<string, unknown>] | null {
  if (outcome.status === 'delivered') return null;
  const retry = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
  const what = retry ? `next try at ${retry}` : 'failed for good';
  return [
    `formloom outbox: ${item.kind} ${item.id} not sent (attempt ${item.attempts}); ${what}`,
    { kind: item.kind, id: item.id, attempt: item.attempts, next_attempt_at: retry, error: outcome.error },
  ];
}
