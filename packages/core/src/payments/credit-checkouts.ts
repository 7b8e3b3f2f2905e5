import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { FormloomConfig } from '../config';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Payments } from '../ports/payments';
import type { CreditCheckoutRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { atProcessor, processorOf, returnUrl } from './processor';

export const DEFAULT_CREDIT_PRICE = { currency: 'usd', per_1000: 100 } as const;

export const creditCheckoutSchema = z
  .object({
    credits: z.number().int().min(1000).max(1_000_000),
    /** Where the buyer comes back to, a path on this server (default `/voice/credits`, the workspace's Credits tab). */
    return_path: z.string().max(500).regex(/^\/(?!\/)/, 'a path on this server, starting with /').optional(),
  })
  .strict();

export const creditCheckoutOut = z.object({
  data: z.object({
    object: z.literal('voice.credit_checkout'),
    id: z.string(),
    url: z.string(),
    credits: z.number().int(),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(['open', 'completed']),
    created_at: z.string(),
  }),
});

export const creditPriceOut = z.object({
  data: z.object({
    object: z.literal('voice.credit_price'),
    /** Whether credits can be bought here (a payment processor is configured). */
    available: z.boolean(),
    currency: z.string(),
    per_1000: z.number().int(),
  }),
});

const present = (c: CreditCheckoutRecord, url: string) => ({
  data: { object: 'voice.credit_checkout' as const, id: c.id, url, credits: c.credits, amount: c.amount, currency: c.currency, status: c.status, created_at: c.created_at },
});

/**
 * Voice credits bought in the workspace (docs/payments.md, "Voice credits"): a Checkout Session at the configured
 * price, recorded as an open checkout; the processor's signed `checkout.session.completed` adds the credits, once
 * (PaymentEvents).
 */
@injectable()
export class CreditCheckouts {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  price() {
    const p = this.config.creditPrice ?? DEFAULT_CREDIT_PRICE;
    return { data: { object: 'voice.credit_price' as const, available: !!this.payments.processor, currency: p.currency.toLowerCase(), per_1000: p.per_1000 } };
  }

  /** Opens a Checkout Session for `credits`; `idempotencyKey` (the request's header) makes a retry answer the same session. */
  async start(principal: Principal, body: z.infer<typeof creditCheckoutSchema>, idempotencyKey: string | undefined) {
    const processor = processorOf(this.payments);
    const { currency, per_1000 } = this.price().data;
    const user = await this.storage.users.findById(principal.user_id);
    const back = (state: string) => {
      const url = returnUrl(this.config.publicUrl, body.return_path, '/voice/credits');
      return `${url}${url.includes('?') ? '&' : '?'}checkout=${state}`;
    };
    // The price of the whole purchase, rounded up to the currency's smallest unit, as one line of Checkout.
    const amount = Math.ceil((body.credits * per_1000) / 1000);
    const session = await atProcessor(() =>
      processor.createCheckout({
        unit_amount: amount,
        quantity: 1,
        currency,
        product_name: `${body.credits.toLocaleString('en')} voice credits`,
        success_url: back('success'),
        cancel_url: back('cancelled'),
        idempotency_key: `credits-${principal.user_id}-${idempotencyKey ?? this.ids.secret(12)}`,
        metadata: { formloom: 'voice_credits', user_id: principal.user_id, credits: String(body.credits) },
        ...(user?.email ? { customer_email: user.email } : {}),
      }),
    );
    const existing = await this.storage.payments.findCheckout(session.id);
    if (existing) return present(existing, session.url);
    const record: CreditCheckoutRecord = {
      id: session.id,
      user_id: principal.user_id,
      credits: body.credits,
      amount,
      currency,
      status: 'open',
      created_at: this.clock.now().toISOString(),
      completed_at: null,
    };
    try {
      await this.storage.payments.insertCheckout(record);
    } catch (e) {
      // A retry racing its first attempt with one Idempotency-Key: the processor gave both the same session.
      const raced = await this.storage.payments.findCheckout(session.id);
      if (!raced) throw e;
      return present(raced, session.url);
    }
    return present(record, session.url);
  }
}
