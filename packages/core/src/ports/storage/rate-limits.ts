/** A rate-limit counter after a hit: its count in the current window and when that window ends (ISO 8601). */
export interface RateLimitCounter {
  hits: number;
  resets_at: string;
}

/**
 * Fixed-window request counters shared by every instance on the database (docs/security.md). Timestamps
 * are ISO 8601 UTC strings with milliseconds, compared as text like every other timestamp.
 */
export interface RateLimitRepository {
  /**
   * Counts one hit on `key` as one atomic upsert-increment: while the key's window ends after `now` the
   * count grows by one; otherwise (no row, or the window ended) a window ending at `resetsAt` starts with
   * one hit. Under any number of concurrent hits (also from other processes) no hit is lost. `by` (a
   * positive integer, default 1) counts that many hits in the same step: a batch counted in memory first.
   * @returns the counter after this hit.
   */
  hit(key: string, now: string, resetsAt: string, by?: number): Promise<RateLimitCounter>;
  /**
   * Takes back one hit of the key's window running at `now` (an attempt counted before it was known to be
   * allowed, such as a sign-in that succeeded); nothing when the window ended or holds no hit.
   */
  release(key: string, now: string): Promise<void>;
  /** The key's counter when its window ends after `now`, else `null` (no counter or an ended window); counts nothing. */
  peek(key: string, now: string): Promise<RateLimitCounter | null>;
  /**
   * Deletes counters whose window ended at or before `before`.
   * @returns how many were deleted.
   */
  prune(before: string): Promise<number>;
}
