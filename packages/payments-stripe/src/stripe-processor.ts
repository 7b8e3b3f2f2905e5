import Stripe from 'stripe';
import {
  PaymentProcessorError,
  PaymentSignatureError,
  type CheckoutSession,
  type ConnectedAccount,
  type CreateCheckoutRequest,
  type CreatePaymentRequest,
  type PaymentProcessor,
  type ProcessorEvent,
  type ProcessorPayment,
  type ProcessorPaymentStatus,
  type ProcessorRefund,
  type RefundRequest,
} from '@formloom/core';

export interface StripeProcessorOptions {
  /** `FORMLOOM_STRIPE_SECRET_KEY` (`sk_live_...` / `sk_test_...`; a restricted `rk_` key works too). */
  secretKey: string;
  /** `FORMLOOM_STRIPE_WEBHOOK_SECRET` (`whsec_...`), of the endpoint at `/api/v1/payments/stripe/webhook`. */
  webhookSecret: string;
  /** `FORMLOOM_STRIPE_PUBLISHABLE_KEY` (`pk_...`), for the respondent's page. */
  publishableKey: string;
  /**
   * Another API server than Stripe's (`FORMLOOM_STRIPE_API_URL`, e.g. `http://127.0.0.1:12111` for a local
   * fake): the SDK's documented `host`/`port`/`protocol` options are set from it. Tests only.
   */
  apiUrl?: string;
  /** The SDK's automatic retries of network errors (each with the same idempotency key); default 2. */
  maxNetworkRetries?: number;
  /** Per-request time-out; default 20 s. */
  timeoutMs?: number;
  /** Signed events older than this are refused (the SDK's replay tolerance); default 300 s. */
  toleranceSeconds?: number;
}

/** Stripe's states in Formloom's words (docs/payments.md, "Payment states"). */
function statusOf(pi: Stripe.PaymentIntent, eventType?: string): ProcessorPaymentStatus {
  if (eventType === 'payment_intent.payment_failed') return 'failed';
  switch (pi.status) {
    case 'succeeded':
      return 'succeeded';
    case 'processing':
    case 'requires_capture':
      return 'processing';
    case 'canceled':
      return 'canceled';
    default:
      return 'requires_payment';
  }
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

function paymentOf(pi: Stripe.PaymentIntent, eventType?: string): ProcessorPayment {
  const charge = pi.latest_charge && typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  return {
    id: pi.id,
    status: statusOf(pi, eventType),
    amount: pi.amount,
    currency: pi.currency,
    amount_refunded: charge?.amount_refunded ?? 0,
    client_secret: pi.client_secret ?? null,
    destination: idOf(pi.transfer_data?.destination),
    metadata: { ...(pi.metadata ?? {}) },
  };
}

const accountOf = (a: Stripe.Account): ConnectedAccount => ({ id: a.id, charges_enabled: !!a.charges_enabled, details_submitted: !!a.details_submitted });

/** Stripe's refusals as PaymentProcessorError (its message is written for the account owner); anything else as is. */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof Stripe.errors.StripeError && e.statusCode && e.statusCode < 500 && e.type !== 'StripeAuthenticationError') {
      throw new PaymentProcessorError(e.message, e.statusCode, e.code ?? null);
    }
    throw e;
  }
}

/** The SDK's documented `host`/`port`/`protocol` options from one URL. */
function endpointOf(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const u = new URL(apiUrl);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { host: u.hostname, port: u.port || (protocol === 'http' ? 80 : 443), protocol };
}

/**
 * The payments port's processor on Stripe (docs/payments.md): PaymentIntents for payment questions (a
 * destination charge for Connect), refunds, Express accounts with onboarding links, Checkout Sessions for
 * voice credits, and events verified with the SDK's `constructEvent`.
 */
export function createStripeProcessor(options: StripeProcessorOptions): PaymentProcessor {
  if (!options.secretKey) throw new Error('Stripe: the secret key (FORMLOOM_STRIPE_SECRET_KEY) is empty');
  if (!options.webhookSecret) throw new Error('Stripe: the webhook secret (FORMLOOM_STRIPE_WEBHOOK_SECRET) is empty');
  if (!options.publishableKey) throw new Error('Stripe: the publishable key (FORMLOOM_STRIPE_PUBLISHABLE_KEY) is empty');
  const stripe = new Stripe(options.secretKey, {
    ...endpointOf(options.apiUrl),
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: 'Formloom', url: 'https://github.com/formloom/formloom' },
  });
  const tolerance = options.toleranceSeconds ?? 300;

  const retrieve = (id: string) => call(() => stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));

  return {
    id: 'stripe',
    publishableKey: options.publishableKey,
    scriptOrigin: 'https://js.stripe.com',

    async createPayment(r: CreatePaymentRequest) {
      const pi = await call(() =>
        stripe.paymentIntents.create(
          {
            amount: r.amount,
            currency: r.currency.toLowerCase(),
            automatic_payment_methods: { enabled: true },
            metadata: r.metadata,
            ...(r.description ? { description: r.description } : {}),
            ...(r.destination ? { transfer_data: { destination: r.destination } } : {}),
          },
          { idempotencyKey: r.idempotency_key },
        ),
      );
      return paymentOf(pi);
    },

    async retrievePayment(id: string) {
      return paymentOf(await retrieve(id));
    },

    async refund(r: RefundRequest): Promise<ProcessorRefund> {
      const refund = await call(() =>
        stripe.refunds.create(
          {
            payment_intent: r.payment_id,
            ...(r.amount !== undefined ? { amount: r.amount } : {}),
            ...(r.reverse_transfer ? { reverse_transfer: true } : {}),
          },
          { idempotencyKey: r.idempotency_key },
        ),
      );
      const status = (['pending', 'succeeded', 'failed', 'canceled'] as const).find((s) => s === refund.status) ?? 'pending';
      return { id: refund.id, payment_id: idOf(refund.payment_intent) ?? r.payment_id, amount: refund.amount, status };
    },

    async createCheckout(r: CreateCheckoutRequest): Promise<CheckoutSession> {
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ quantity: r.quantity, price_data: { currency: r.currency.toLowerCase(), unit_amount: r.unit_amount, product_data: { name: r.product_name } } }],
            success_url: r.success_url,
            cancel_url: r.cancel_url,
            metadata: r.metadata,
            payment_intent_data: { metadata: r.metadata },
            ...(r.customer_email ? { customer_email: r.customer_email } : {}),
          },
          { idempotencyKey: r.idempotency_key },
        ),
      );
      if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
      return { id: session.id, url: session.url };
    },

    async createConnectedAccount(r) {
      const account = await call(() =>
        stripe.accounts.create(
          { type: 'express', ...(r.email ? { email: r.email } : {}), capabilities: { card_payments: { requested: true }, transfers: { requested: true } } },
          { idempotencyKey: r.idempotency_key },
        ),
      );
      return accountOf(account);
    },

    async retrieveConnectedAccount(id: string) {
      return accountOf(await call(() => stripe.accounts.retrieve(id)));
    },

    async createOnboardingLink(r) {
      const link = await call(() => stripe.accountLinks.create({ account: r.account, refresh_url: r.refresh_url, return_url: r.return_url, type: 'account_onboarding' }));
      return { url: link.url };
    },

    parseEvent(body: Uint8Array, signature: string): ProcessorEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(Buffer.from(body.buffer, body.byteOffset, body.byteLength), signature, options.webhookSecret, tolerance);
      } catch (e) {
        if (e instanceof Stripe.errors.StripeSignatureVerificationError) throw new PaymentSignatureError(e.message);
        throw new PaymentSignatureError('The event could not be read');
      }
      const { id, type } = event;
      const object = event.data.object as unknown as Record<string, unknown>;
      switch (type) {
        case 'payment_intent.succeeded':
        case 'payment_intent.processing':
        case 'payment_intent.payment_failed':
        case 'payment_intent.canceled':
          return { kind: 'payment', id, type, payment: paymentOf(object as unknown as Stripe.PaymentIntent, type) };
        case 'charge.refunded': {
          const charge = object as unknown as Stripe.Charge;
          const paymentId = idOf(charge.payment_intent);
          if (!paymentId) return { kind: 'other', id, type };
          return { kind: 'refund', id, type, payment_id: paymentId, amount_refunded: charge.amount_refunded };
        }
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const s = object as unknown as Stripe.Checkout.Session;
          return {
            kind: 'checkout_completed',
            id,
            type,
            session: { id: s.id, paid: s.payment_status === 'paid', amount_total: s.amount_total ?? 0, currency: s.currency ?? '', metadata: { ...(s.metadata ?? {}) } },
          };
        }
        case 'account.updated':
          return { kind: 'account', id, type, account: accountOf(object as unknown as Stripe.Account) };
        default:
          return { kind: 'other', id, type };
      }
    },
  };
}
