import type { PasswordRecord } from '../../domain/sign-in';

/**
 * Passwords of users who sign in (docs/accounts.md) and the instance's admin slot. Only scrypt hashes are
 * stored; the caller hashes.
 */
export interface CredentialRepository {
  /** The user's password record, or `null` when the user has none (CLI-made accounts, link-only users). */
  findPassword(userId: string): Promise<PasswordRecord | null>;
  /** Sets (inserts or replaces) the user's password hash. */
  setPassword(record: PasswordRecord): Promise<void>;
  /** Deletes the user's password. `false` when there was none. */
  deletePassword(userId: string): Promise<boolean>;
  /**
   * Takes the instance's one admin slot for `userId`, as one conditional insert.
   * @returns `true` for the caller that took it; `false` when it is taken. Of concurrent claims (also from
   * other processes) exactly one returns `true`, and the slot is never given to a second user.
   */
  claimAdmin(userId: string, at: string): Promise<boolean>;
  /** The admin's user id, or `null` while the slot is free. */
  adminId(): Promise<string | null>;
  /** Gives the admin slot to `userId`, whoever held it (the operator's `formloom user admin`). */
  grantAdmin(userId: string, at: string): Promise<void>;
  /** Frees the admin slot when `userId` holds it. @returns whether it did. */
  revokeAdmin(userId: string): Promise<boolean>;
}
