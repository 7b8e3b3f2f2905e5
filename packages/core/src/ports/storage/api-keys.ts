import type { ApiKey } from '../../domain/types';

/** API keys. Only the secret's hash is stored (the caller hashes it); keys are never deleted, only revoked. */
export interface ApiKeyRepository {
  /**
   * Inserts a key.
   * @throws `FormloomError` CONFLICT when the id is taken; nothing is written.
   */
  insert(key: ApiKey): Promise<void>;
  /** The key, revoked or not, or `null` when there is none. */
  findById(id: string): Promise<ApiKey | null>;
  /**
   * Marks the key revoked at `at`, as one conditional update.
   * @returns `false` when there is no such key or it was already revoked (its `revoked_at` stays): of
   * concurrent revocations exactly one returns `true`.
   */
  revoke(id: string, at: string): Promise<boolean>;
  /** The user's keys, revoked ones too, oldest first (`created_at`, then `id`); `[]` when none. */
  listByUser(userId: string): Promise<ApiKey[]>;
}
