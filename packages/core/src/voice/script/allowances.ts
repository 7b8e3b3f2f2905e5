import { FormloomError } from '../../errors';
import type { Clock } from '../../ports/clock';
import type { RateLimitRepository } from '../../ports/storage/rate-limits';

/** The free script helpers with a daily allowance per account (docs/voice.md, "Scripts"). */
export type ScriptHelper = 'auto_convert' | 'auto_cast';

/** The first instant of the next UTC day: daily allowances reset there. */
export const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

/** Takes back the uses counted for a request that then failed. */
export type AllowanceRelease = () => Promise<void>;

/**
 * Counts one use of each helper for the account, per UTC day, in the shared rate-limit counters (so every
 * instance on one database sees the same count). Over the allowance: 429 `RATE_LIMITED` with `reason`
 * `<helper>_limit`, `limit`, `resets_at` and `retry_after` (seconds), and nothing counted.
 */
export async function takeAllowances(
  counters: RateLimitRepository,
  clock: Clock,
  userId: string,
  helpers: ReadonlyArray<{ helper: ScriptHelper; limit: number }>,
): Promise<AllowanceRelease> {
  const now = clock.now();
  const resetsAt = nextUtcMidnight(now).toISOString();
  const taken: string[] = [];
  const release = async () => {
    const at = clock.now().toISOString();
    for (const key of taken.splice(0)) await counters.release(key, at);
  };
  for (const { helper, limit } of helpers) {
    const key = `voice:${helper}:${userId}`;
    const counter = await counters.hit(key, now.toISOString(), resetsAt);
    taken.push(key);
    if (counter.hits > limit) {
      await release();
      const retryAfter = Math.max(1, Math.ceil((Date.parse(counter.resets_at) - now.getTime()) / 1000));
      throw new FormloomError('RATE_LIMITED', `${helper} is free up to ${limit} times a day per account; the allowance resets at ${counter.resets_at}`, {
        reason: `${helper}_limit`,
        field: helper,
        limit,
        resets_at: counter.resets_at,
        retry_after: retryAfter,
      });
    }
  }
  return release;
}
