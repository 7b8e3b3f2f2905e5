import type { Invitation } from '../../domain/types';

/**
 * Team invitations. Emails are stored and compared lower-case; only the token's hash (and a sealed copy the
 * caller made) is stored. An invitation is pending until accepted or cancelled; a pending one past
 * `expires_at` is expired (it no longer holds a seat) but stays pending in storage.
 */
export interface InvitationRepository {
  /**
   * Inserts an invitation (the email lower-cased).
   * @throws `FormloomError` CONFLICT when the id or the token hash is taken; nothing is written.
   */
  insert(invitation: Invitation): Promise<void>;
  /** The invitation by id, only when it belongs to `teamId`, whatever its state; otherwise `null`. */
  findById(teamId: string, id: string): Promise<Invitation | null>;
  /** The invitation with this token hash, whatever its state, or `null`. */
  findByTokenHash(tokenHash: string): Promise<Invitation | null>;
  /** The team's pending invitations whose `expires_at` is after `now`, newest `created_at` first (ties by id descending). */
  listPending(teamId: string, now: string): Promise<Invitation[]>;
  /** How many of the team's pending invitations are unexpired at `now` (they hold seats). */
  countPending(teamId: string, now: string): Promise<number>;
  /** An unexpired pending invitation of the team for the email (compared lower-case), or `null`. */
  findPendingByEmail(teamId: string, email: string, now: string): Promise<Invitation | null>;
  /** Whether any team has an unexpired pending invitation for the email (compared lower-case): invite-only sign-up admits it. */
  hasPendingForEmail(email: string, now: string): Promise<boolean>;
  /**
   * Moves a pending invitation (expired or not) to `status` with `updated_at = at`, as one conditional
   * update.
   * @returns `false` when there is none or it is no longer pending: of concurrent accepts exactly one wins.
   */
  settle(id: string, status: 'accepted' | 'cancelled', at: string): Promise<boolean>;
  /**
   * Cancels every pending invitation of the team for the email (compared lower-case), expired ones too.
   * @returns how many were cancelled.
   */
  cancelForEmail(teamId: string, email: string, at: string): Promise<number>;
}
