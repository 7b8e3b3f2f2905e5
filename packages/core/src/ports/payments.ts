/**
 * Payments (docs/payments.md). `purchaseCredits` records credits an operator sold outside Formloom (the CLI and
 * the admin area); it works on every instance. `processor` is the payment processor, present only when one is
 * configured (`@formloom/payments-stripe` with `FORMLOOM_STRIPE_*`): payment questions, refunds, Connect
 * onboarding, Checkout for voice credits and the processor's signed events all go through it. Without it,
 * payment questions are a publish check (`payment_not_configured`) and "Buy credits" is not offered.
 */
export interface Payments {
  /** Buys `credits` for the user and returns the new balance. */
  purchaseCredits(userId: string, credits: number): Promise<number>;
  /** The configured payment processor; absent when none is. */
  readonly processor?: PaymentProcessor;
}

/** A payment's state as the processor reports it, in Formloom's words. */
export type ProcessorPaymentStatus = 'requires_payment' | 'processing' | 'succeeded' | 'canceled' | 'failed';

/** A payment at the processor (a Stripe PaymentIntent). Amounts are integers in the currency's smallest unit. */
export interface ProcessorPayment {
  /** The processor's id (`pi_...`). */
  id: string;
  status: ProcessorPaymentStatus;
  amount: number;
  /** ISO 4217, lower case (`eur`). */
  currency: string;
  /** What was refunded so far, in the smallest unit. */
  amount_refunded: number;
  /** For the respondent's page only (the Payment Element confirms with it); never stored nor logged. */
  client_secret: string | null;
  /** The connected account the money goes to (Connect), or null for the instance's own account. */
  destination: string | null;
  metadata: Record<string, string>;
}

export interface CreatePaymentRequest {
  amount: number;
  currency: string;
  /** The same key gives back the same payment (a retried request never charges twice). */
  idempotency_key: string;
  metadata: Record<string, string>;
  /** Pays into this connected account (Connect destination charge); null: the instance's own account. */
  destination?: string | null;
  description?: string;
}

export interface RefundRequest {
  payment_id: string;
  /** Smallest unit; omitted: what is left of the payment. */
  amount?: number;
  idempotency_key: string;
  /** A Connect payment also takes the money back from the connected account. */
  reverse_transfer?: boolean;
}

export interface ProcessorRefund {
  id: string;
  payment_id: string;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
}

/** A hosted checkout page selling one item (voice credits). */
export interface CreateCheckoutRequest {
  /** Price of one unit in the smallest currency unit, and how many. */
  unit_amount: number;
  quantity: number;
  currency: string;
  product_name: string;
  success_url: string;
  cancel_url: string;
  idempotency_key: string;
  metadata: Record<string, string>;
  customer_email?: string;
}

export interface CheckoutSession {
  id: string;
  /** Where to send the buyer. */
  url: string;
}

/** A connected account (Stripe Connect) that receives an owner's payments. */
export interface ConnectedAccount {
  id: string;
  /** True once the processor lets it take charges (onboarding finished). */
  charges_enabled: boolean;
  details_submitted: boolean;
}

/** An event from the processor, verified and reduced to what Formloom acts on. `id` is the processor's event id. */
export type ProcessorEvent =
  | { kind: 'payment'; id: string; type: string; payment: ProcessorPayment }
  | { kind: 'refund'; id: string; type: string; payment_id: string; amount_refunded: number }
  | {
      kind: 'checkout_completed';
      id: string;
      type: string;
      session: { id: string; paid: boolean; amount_total: number; currency: string; metadata: Record<string, string> };
    }
  | { kind: 'account'; id: string; type: string; account: ConnectedAccount }
  | { kind: 'other'; id: string; type: string };

/** Thrown by `parseEvent` for a body whose signature does not verify (or is missing or too old). */
export class PaymentSignatureError extends Error {
  override readonly name = 'PaymentSignatureError';
}

/** A processor's refusal (a declined refund, an unknown payment): its message is safe to show the owner. */
export class PaymentProcessorError extends Error {
  override readonly name = 'PaymentProcessorError';
  constructor(message: string, readonly status: number, readonly code: string | null = null) {
    super(message);
  }
}

/** The payment processor (see `Payments.processor`); conformance suite: `paymentProcessorConformance`. */
export interface PaymentProcessor {
  /** The processor's name, e.g. `stripe`. */
  readonly id: string;
  /** The key the respondent's page loads the processor's browser library with. */
  readonly publishableKey: string;
  /** The browser origin the respondent's page loads that library from (widened into the page's CSP). */
  readonly scriptOrigin: string;
  createPayment(request: CreatePaymentRequest): Promise<ProcessorPayment>;
  retrievePayment(id: string): Promise<ProcessorPayment>;
  refund(request: RefundRequest): Promise<ProcessorRefund>;
  createCheckout(request: CreateCheckoutRequest): Promise<CheckoutSession>;
  createConnectedAccount(request: { email?: string; idempotency_key: string }): Promise<ConnectedAccount>;
  retrieveConnectedAccount(id: string): Promise<ConnectedAccount>;
  /** A one-time onboarding link for the account; `refresh_url` is where an expired link leads. */
  createOnboardingLink(request: { account: string; refresh_url: string; return_url: string }): Promise<{ url: string }>;
  /**
   * Verifies `body` (the request's raw bytes, exactly as received) against the signature header and reduces it
   * to a ProcessorEvent. Throws PaymentSignatureError when it does not verify.
   */
  parseEvent(body: Uint8Array, signature: string): ProcessorEvent;
}
