/** Records credit purchases. */
export interface Payments {
  /** Buys `credits` for the user and returns the new balance. */
  purchaseCredits(userId: string, credits: number): Promise<number>;
}
