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
