import type { OneTimeToken, OneTimeTokenPurpose } from '../../domain/sign-in';

/**
 * Single-use tokens: sign-in links, password resets, email verifications and passkey challenges. Only a
 * hash of each token is stored (the caller hashes).
 */
export interface OneTimeTokenRepository {
  /**
   * Inserts a token.
   * @throws `FormloomError` CONFLICT when the id or the token hash is taken; nothing is written.
   */
  insert(token: OneTimeToken): Promise<void>;
  /**
   * Uses the token: when one with this hash and purpose is unused and its `expires_at` is after `now`, sets
   * `used_at = now` and returns it (with `used_at` set), as one conditional update. Otherwise `null`.
   * Of concurrent calls for one token (also from other processes) exactly one gets the token.
   */
  consume(tokenHash: string, purpose: OneTimeTokenPurpose, now: string): Promise<OneTimeToken | null>;
  /**
   * Marks every unused token of the user with this purpose used at `at` (a reset that succeeded ends the
   * other reset links).
   * @returns how many were marked.
   */
  revokeForUser(userId: string, purpose: OneTimeTokenPurpose, at: string): Promise<number>;
  /**
   * Deletes tokens whose `expires_at` is at or before `before`, used or not.
   * @returns how many were deleted.
   */
  prune(before: string): Promise<number>;
}
