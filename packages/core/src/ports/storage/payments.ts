/**
 * Payments (docs/payments.md): payments of payment questions, voice-credit checkouts, owners' connected
 * accounts, and the processor's events already applied.
 */

/** A payment's state in Formloom (docs/payments.md, "Payment states"). */
export type PaymentStatus = 'requires_payment' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'refunded' | 'partially_refunded';

export interface PaymentRecord {
  /** `pay_...` */
  id: string;
  form_id: string;
  response_id: string;
  question_id: string;
  /** `standard` (the instance's account) or `connect` (the owner's own account). */
  provider: 'standard' | 'connect';
  /** The processor's id (a Stripe PaymentIntent `pi_...`); unique. */
  processor_payment_id: string;
  /** The connected account paid into (Connect), else null. */
  destination: string | null;
  /** Smallest currency unit, computed by the server. */
  amount: number;
  /** ISO 4217, lower case. */
  currency: string;
  status: PaymentStatus;
  amount_refunded: number;
  created_at: string;
  updated_at: string;
}

/** A Checkout Session selling voice credits to a user. */
export interface CreditCheckoutRecord {
  /** The processor's session id (`cs_...`). */
  id: string;
  user_id: string;
  credits: number;
  /** What the buyer pays, smallest unit, and in which currency. */
  amount: number;
  currency: string;
  status: 'open' | 'completed';
  created_at: string;
  completed_at: string | null;
}

/** A form owner's connected account (Stripe Connect). */
export interface PaymentAccountRecord {
  user_id: string;
  account_id: string;
  charges_enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface PaymentRepository {
  /**
   * Records that the processor's event `event_id` is being applied: true the first time, false for every
   * later delivery of it (retries, duplicates, another instance). Call it in the transaction that applies the
   * event, so the claim and its effect commit together or not at all (a crash before the commit leaves the
   * event unclaimed, and the processor's retry applies it). Concurrent claims of one event: exactly one true.
   */
  claimEvent(claim: { processor: string; event_id: string; type: string; received_at: string }): Promise<boolean>;
  /** A new payment; a second one for the same (response_id, question_id) or processor id is a CONFLICT. */
  insert(payment: PaymentRecord): Promise<void>;
  findById(id: string): Promise<PaymentRecord | null>;
  findByProcessorId(processorPaymentId: string): Promise<PaymentRecord | null>;
  /** The payment of one question of a response, or null. */
  findFor(responseId: string, questionId: string): Promise<PaymentRecord | null>;
  /** The payments of these responses (any order). */
  forResponses(responseIds: readonly string[]): Promise<PaymentRecord[]>;
  /**
   * Points a payment that has not succeeded (`requires_payment`, `failed`, `canceled`) at a new processor payment
   * (the amount changed with the answers); false when it succeeded meanwhile or does not exist.
   */
  replacePending(id: string, patch: { processor_payment_id: string; amount: number; currency: string; destination: string | null; updated_at: string }): Promise<boolean>;
  /** Changes status and refunded amount; false when there is no such payment. */
  update(id: string, patch: { status: PaymentStatus; amount_refunded: number; updated_at: string }): Promise<boolean>;

  insertCheckout(checkout: CreditCheckoutRecord): Promise<void>;
  findCheckout(id: string): Promise<CreditCheckoutRecord | null>;
  /**
   * Moves an open checkout to `completed` as one conditional update: true for exactly one caller, false when
   * it was already completed or does not exist.
   */
  completeCheckout(id: string, at: string): Promise<boolean>;
  /** The user's checkouts, newest first (at most `limit`). */
  checkoutsOf(userId: string, limit: number): Promise<CreditCheckoutRecord[]>;

  /** Creates or replaces the user's connected account. */
  putAccount(account: PaymentAccountRecord): Promise<void>;
  accountOf(userId: string): Promise<PaymentAccountRecord | null>;
  accountById(accountId: string): Promise<PaymentAccountRecord | null>;
}
