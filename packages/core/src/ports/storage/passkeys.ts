import type { PasskeyRecord } from '../../domain/sign-in';

/** WebAuthn credentials of users (docs/accounts.md, "Passkeys"). */
export interface PasskeyRepository {
  /**
   * Inserts a passkey.
   * @throws `FormloomError` CONFLICT when the id or the credential id is taken; nothing is written.
   */
  insert(passkey: PasskeyRecord): Promise<void>;
  /** The passkey with this credential id (base64url), or `null`. */
  findByCredentialId(credentialId: string): Promise<PasskeyRecord | null>;
  /** The user's passkeys, oldest first (`created_at`, then `id`); `[]` when none. */
  listByUser(userId: string): Promise<PasskeyRecord[]>;
  /**
   * Records a sign-in with the passkey: `counter` and `last_used_at`, only while the stored counter is
   * below `counter` or both are 0 (authenticators without a counter), as one conditional update.
   * @returns `false` when the passkey is gone or the counter did not grow (a cloned authenticator, or a
   * concurrent use of the same assertion): of concurrent uses of one assertion at most one wins.
   */
  recordUse(id: string, counter: number, at: string): Promise<boolean>;
  /** Deletes one of the user's passkeys. `false` when there is none of that id for that user. */
  delete(userId: string, id: string): Promise<boolean>;
  /**
   * Deletes every passkey of the user (the first proof of the address drops those registered before it).
   * @returns how many were deleted.
   */
  deleteForUser(userId: string): Promise<number>;
}
