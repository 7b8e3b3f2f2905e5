import type { IdempotencyRecord } from '../../domain/types';

/** Idempotency keys: who claimed a key, until when, and the stored result once the work is done. */
export interface IdempotencyRepository {
  /**
   * Claims `key` for `owner` (status `in_progress`, no result). A key whose record expired at or before `now`
   * is taken over by the new claim.
   * @returns `true` for the claim that stored the record: of any number of concurrent claims of one
   * unexpired key exactly one returns `true`; `false` while an unexpired record exists (claimed or done).
   */
  claim(record: Omit<IdempotencyRecord, 'status' | 'result'>, now: string): Promise<boolean>;
  /** Stores the result of a claimed key and marks it `done`; a key with no record is ignored. */
  complete(key: string, result: Record<string, unknown>): Promise<void>;
  /** Forgets a claim (the work failed and may be retried); a key with no record is ignored. */
  release(key: string): Promise<void>;
  /** The record, expired or not, or `null` when there is none. */
  find(key: string): Promise<IdempotencyRecord | null>;
  /**
   * Deletes up to `limit` records that expired at or before `before` (an expired record is only ever taken
   * over, never read as a replay). Bounded so a large backlog goes in short statements.
   * @returns how many records it deleted: fewer than `limit` once none are left.
   */
  purgeExpired(query: { before: string; limit: number }): Promise<number>;
}
