import type { User } from '../../domain/types';
import type { Page } from './page';

/**
 * Accounts (`users`). Emails are unique case-insensitively: the adapter compares them trimmed and
 * lower-cased, and stores the address as given.
 */
export interface UserRepository {
  /**
   * Inserts a user.
   * @throws `FormloomError` CONFLICT when the id or the email (in any case) is taken; nothing is written.
   * Concurrent inserts of one email: exactly one succeeds, the others get CONFLICT.
   */
  insert(user: User): Promise<void>;
  /** The user, or `null` when there is none. */
  findById(id: string): Promise<User | null>;
  /** The user whose email equals `email` compared trimmed and lower-case, or `null` when there is none. */
  findByEmail(email: string): Promise<User | null>;
  /**
   * Applies the patch (fields absent from it stay as they are) and returns the updated user; an empty patch
   * returns the user unchanged.
   * @returns `null` when there is no such user (nothing is written).
   * @throws `FormloomError` CONFLICT when the new email is another user's (in any case); nothing is written.
   */
  update(id: string, patch: Partial<Omit<User, 'id' | 'created_at'>>): Promise<User | null>;
  /** Users oldest first (`created_at`, then `id`), `limit` of them from `offset`, with the total. */
  list(page: { offset: number; limit: number }): Promise<Page<User>>;
  /**
   * Deletes the person and every row keyed by them, atomically: API keys, password, sessions, one-time tokens,
   * passkeys, webhook settings and secret, credits, checkouts, payment and calendar accounts, team memberships,
   * the admin claim, voice generations; invitations to their address and one-time tokens whose data names it.
   * Forms and teams are the caller's to delete first; audit events stay, their `user_email` cleared.
   * @returns whether there was such a person, and the ids of the voice generations whose audio to delete.
   */
  deleteAccount(userId: string): Promise<{ deleted: boolean; generation_ids: string[] }>;
}
