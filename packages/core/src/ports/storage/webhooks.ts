import type { GlobalWebhook } from '../../domain/types';

/** An account's global webhooks and its webhook signing secret. */
export interface WebhookRepository {
  /** The account's global webhooks in their stored order; `[]` when it has none. */
  listGlobal(userId: string): Promise<GlobalWebhook[]>;
  /** Replaces the account's global webhooks with `hooks`, in that order, atomically (`[]` removes them all). */
  replaceGlobal(userId: string, hooks: GlobalWebhook[]): Promise<void>;
  /** The account's signing secret (as stored by the caller, e.g. encrypted), or `null` when it has none. */
  getSecret(userId: string): Promise<string | null>;
  /**
   * Stores `secret` only when the account has none.
   * @returns the secret in force afterwards: concurrent callers all get the same one (exactly one insert
   * lands).
   */
  createSecretIfAbsent(userId: string, secret: string): Promise<string>;
  /** Replaces the secret (or stores the first one). */
  setSecret(userId: string, secret: string): Promise<void>;
}
