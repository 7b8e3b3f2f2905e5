/**
 * Credits as a ledger (docs/voice.md, "Billing"): every purchase, spend and credit-back is an entry with a
 * signed `amount`; a user's balance is the sum of their entries, kept as a cached balance that changes in
 * the same transaction as each entry. A user who never had credits has 0.
 */
export type CreditEntryKind = 'purchase' | 'spend' | 'credit_back';

export interface CreditEntry {
  id: string;
  user_id: string;
  kind: CreditEntryKind;
  /** Signed: positive for purchases and credit-backs, negative for spends. */
  amount: number;
  /** The generation a spend paid for (and its credit-back); null for purchases. */
  generation_id: string | null;
  /** The API key a spend was made with (monthly key limits count these); null otherwise. */
  key_id: string | null;
  created_at: string;
}

/** A spend for one generation, at most once per generation id. */
export interface GenerationSpend {
  /** Id of the ledger entry. */
  id: string;
  user_id: string;
  key_id: string | null;
  generation_id: string;
  /** Credits to take, at least 1. */
  amount: number;
  created_at: string;
  /** When the key has a monthly limit: its limit and the start of the current month (ISO 8601). */
  key_limit?: { limit: number; since: string } | null;
}

export type SpendOutcome =
  | { ok: true; balance: number }
  | { ok: false; reason: 'insufficient' | 'key_limit' | 'duplicate'; balance: number };

export interface CreditRepository {
  /** The balance in credits (the ledger's sum); 0 for a user who never had any. */
  balance(userId: string): Promise<number>;
  /**
   * Records a purchase of `amount` credits (a positive integer) and returns the new balance: the entry and
   * the balance change commit together. Concurrent purchases, first ones included, never lose one.
   */
  add(userId: string, amount: number, entry?: { id?: string; created_at?: string }): Promise<number>;
  /**
   * Takes `amount` credits without a generation (operator use), only when the balance covers it, as one
   * atomic conditional update: concurrent calls never take the balance below zero.
   * @returns the new balance, or `null` when the balance was too low (nothing taken).
   */
  spend(userId: string, amount: number): Promise<number | null>;
  /**
   * Takes credits for a generation as one atomic step: the spend entry and the balance decrement commit
   * together or not at all. Refused (nothing written) when the balance does not cover it (`insufficient`),
   * when the key's spends since `key_limit.since` plus this one would exceed `key_limit.limit`
   * (`key_limit`), or when this generation already has a spend (`duplicate`): under any number of
   * concurrent calls the balance never goes below zero and a generation is charged at most once.
   * Call it on the root storage, not inside a transaction (a refusal rolls back the work it did).
   */
  spendFor(spend: GenerationSpend): Promise<SpendOutcome>;
  /**
   * Gives back the spend of `generationId` as a `credit_back` entry, once: a generation without a spend,
   * or already credited back, changes nothing. `entry.amount` (a positive integer, for a script whose
   * failed lines are credited back) gives back only that part, at most the whole spend; without it, the
   * whole spend. Either way a generation has at most one credit-back, under any number of concurrent calls.
   * @returns the new balance, or `null` when nothing was credited back.
   */
  creditBack(generationId: string, entry: { id: string; created_at: string; amount?: number }): Promise<number | null>;
  /** Credits the key spent since `since` (ISO 8601), net of credit-backs. */
  keySpent(keyId: string, since: string): Promise<number>;
  /** The user's entries, oldest first. */
  entries(userId: string): Promise<CreditEntry[]>;
  /** One page of the user's entries, newest first (ties by id, descending), and how many there are in all. */
  entryPage(userId: string, page: { limit: number; offset: number }): Promise<{ items: CreditEntry[]; total: number }>;
}
