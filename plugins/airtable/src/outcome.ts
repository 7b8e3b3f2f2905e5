/*
 * What one call to the service came to, in the terms of an integration's delivery result
 * (docs/integrations.md, "Failures and retries"): a 2xx is delivered; no answer (a network error, a
 * time-out), 408, 429 and 5xx are tried again, after the service's `Retry-After` when it sent one; any
 * other 4xx is final (a wrong key, a deleted sheet: trying again the same request cannot succeed).
 */

export interface SendOutcome {
  /** The service's HTTP status; null when it did not answer. */
  status: number | null;
  ok: boolean;
  retry: boolean;
  /** What the service answered, in short, for the delivery log. */
  body: string;
  /** Why it failed, in words. */
  error?: string;
  /** How long the service asked to wait before the next try (its `Retry-After`), in milliseconds. */
  retryAfterMs?: number;
}

export const isRetryable = (status: number | null) => status === null || status === 408 || status === 429 || status >= 500;

/** A `Retry-After` value (seconds, or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const s = value.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function delivered(status: number, body: string): SendOutcome {
  return { status, ok: true, retry: false, body };
}

export function failed(status: number | null, error: string, retryAfter?: string | null): SendOutcome {
  const wait = isRetryable(status) ? retryAfterMs(retryAfter) : undefined;
  return {
    status,
    ok: false,
    retry: isRetryable(status),
    body: error.slice(0, 500),
    error: status === null ? error : `HTTP ${status}: ${error}`.slice(0, 500),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}
