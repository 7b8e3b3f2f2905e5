import type { IntegrationResult } from './integration-types';

/*
 * For integrations that call a service through its SDK (Google Sheets, Notion, Airtable: docs/integrations.md,
 * "What deliver answers"): what the SDK answered or threw, as a delivery's result, with the rule every
 * delivery follows: a 2xx is delivered; no answer, 408, 429 and 5xx are tried again, no sooner than the
 * service's `Retry-After`; any other 4xx is final, with the service's reason in the log.
 */

/** Whether a failed call with this status (null: no answer) is worth trying again. */
export const isRetryableStatus = (status: number | null) => status === null || status === 408 || status === 429 || status >= 500;

/** A `Retry-After` value (seconds, or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const s = value.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The service did what was asked: `body` says what, for the delivery log (e.g. `Created page …`). */
export function serviceDelivered(status: number, body: string): IntegrationResult {
  return { status, ok: true, retry: false, body };
}

/**
 * The service refused, failed or did not answer (`status` null): `message` is its reason, `retryAfter` its
 * `Retry-After` header (kept only for a failure that is tried again).
 */
export function serviceFailed(status: number | null, message: string, retryAfter?: string | null): IntegrationResult {
  const retry = isRetryableStatus(status);
  const wait = retry ? retryAfterMs(retryAfter) : undefined;
  return {
    status,
    ok: false,
    retry,
    body: message.slice(0, 500),
    error: (status === null ? message : `HTTP ${status}: ${message}`).slice(0, 500),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}
