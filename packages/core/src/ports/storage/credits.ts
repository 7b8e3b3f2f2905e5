/** Credit balances in integer credits, one per user; a user who never had credits has 0. */
export interface CreditRepository {
  /** The balance in credits; 0 for a user who never had any. */
  balance(userId: string): Promise<number>;
  /**
   * Adds credits (a purchase or a refund) as one atomic update and returns the new balance. Concurrent adds,
   * first purchases included, never lose one.
   */
  add(userId: string, amount: number): Promise<number>;
  /**
   * Takes `amount` credits only when the balance covers it, as one atomic conditional update: under any
   * number of concurrent calls (inside transactions or not) the balance never goes below zero, and each
   * successful call gets the balance its own spend left. An amount of 0 or less takes nothing and returns
   * the balance.
   * @returns the new balance, or `null` when the balance was too low (nothing taken).
   */
  spend(userId: string, amount: number): Promise<number | null>;
}
