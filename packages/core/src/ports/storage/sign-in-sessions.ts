import type { SignInSession } from '../../domain/sign-in';

/**
 * Browser sessions (docs/accounts.md, "Sessions"). Looked up by the hash of the cookie's token, so every
 * instance on the database sees a session and a deletion ends it everywhere at once.
 */
export interface SignInSessionRepository {
  /**
   * Inserts a session.
   * @throws `FormloomError` CONFLICT when the id or the token hash is taken; nothing is written.
   */
  insert(session: SignInSession): Promise<void>;
  /** The session with this token hash, expired or not, or `null`. */
  findByTokenHash(tokenHash: string): Promise<SignInSession | null>;
  /** Records a use: sets `last_seen_at` and `expires_at`. `false` when the session is gone. */
  touch(id: string, lastSeenAt: string, expiresAt: string): Promise<boolean>;
  /** Deletes one of the user's sessions. `false` when there is none of that id for that user. */
  delete(userId: string, id: string): Promise<boolean>;
  /**
   * Deletes every session of the user except `exceptId` (none spared when `null`).
   * @returns how many were deleted.
   */
  deleteForUser(userId: string, exceptId: string | null): Promise<number>;
  /** The user's sessions whose `expires_at` is after `now`, newest `created_at` first (ties by id descending). */
  listByUser(userId: string, now: string): Promise<SignInSession[]>;
  /**
   * Deletes sessions whose `expires_at` is at or before `before`.
   * @returns how many were deleted.
   */
  prune(before: string): Promise<number>;
}
