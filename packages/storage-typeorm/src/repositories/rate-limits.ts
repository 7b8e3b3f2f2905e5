import type { RateLimitCounter, RateLimitRepository } from '@formloom/core';
import { RateLimitEntity, type RateLimitRow, rateLimitFromRow } from '../tables/rate-limits';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

export const rateLimitStatements = (d: Dialect) => {
  const limits = tableOf(d, RateLimitEntity);
  return {
    /**
     * One upsert on the primary key: the database counts and restarts an ended window in the same step,
     * so concurrent hits (from any instance) are neither lost nor able to start two windows. SET
     * expressions read the row as it was before the update on both databases.
     */
    hit:
      `INSERT INTO ${limits} AS rl (bucket_key, hits, resets_at) VALUES (${d.p(1)}, ${d.p(4)}, ${d.p(3)}) ` +
      `ON CONFLICT (bucket_key) DO UPDATE SET ` +
      `hits = CASE WHEN rl.resets_at <= ${d.p(2)} THEN ${d.p(4)} ELSE rl.hits + ${d.p(4)} END, ` +
      `resets_at = CASE WHEN rl.resets_at <= ${d.p(2)} THEN excluded.resets_at ELSE rl.resets_at END ` +
      `RETURNING hits, resets_at`,
    release: `UPDATE ${limits} SET hits = hits - 1 WHERE bucket_key = ${d.p(1)} AND resets_at > ${d.p(2)} AND hits > 0`,
    peek: `SELECT hits, resets_at FROM ${limits} WHERE bucket_key = ${d.p(1)} AND resets_at > ${d.p(2)}`,
    prune: `DELETE FROM ${limits} WHERE resets_at <= ${d.p(1)}`,
  };
};

export class SqlRateLimitRepository implements RateLimitRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(rateLimitStatements);
  }

  async hit(key: string, now: string, resetsAt: string, by = 1): Promise<RateLimitCounter> {
    const [row] = await this.scope.db.all<RateLimitRow>(this.st.hit, [key, now, resetsAt, by]);
    return rateLimitFromRow(row!);
  }

  async release(key: string, now: string): Promise<void> {
    await this.scope.db.run(this.st.release, [key, now]);
  }

  async peek(key: string, now: string): Promise<RateLimitCounter | null> {
    const [row] = await this.scope.db.all<RateLimitRow>(this.st.peek, [key, now]);
    return row ? rateLimitFromRow(row) : null;
  }

  async prune(before: string): Promise<number> {
    return this.scope.db.run(this.st.prune, [before]);
  }
}
