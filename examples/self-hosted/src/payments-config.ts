import type { PaymentProcessor } from '@formloom/core';
import type { Env } from './config';

/**
 * Stripe when `FORMLOOM_STRIPE_SECRET_KEY` is set (docs/payments.md, docs/configuration.md): the SDK is loaded only
 * then. A secret key without the webhook secret or the publishable key stops the start, naming what is missing.
 */
export async function stripeFromEnv(env: Env): Promise<PaymentProcessor | null> {
  if (!env.FORMLOOM_STRIPE_SECRET_KEY?.trim()) return null;
  const { createStripeProcessor, stripeOptionsFromEnv } = await import('@formloom/payments-stripe');
  return createStripeProcessor(stripeOptionsFromEnv(env)!);
}

/** `FORMLOOM_CREDITS_CURRENCY` and `FORMLOOM_CREDITS_PRICE_PER_1000` (smallest unit): what "Buy credits" charges. */
export function creditPriceFromEnv(env: Env): { currency: string; per_1000: number } | undefined {
  const currency = env.FORMLOOM_CREDITS_CURRENCY?.trim().toLowerCase();
  const price = env.FORMLOOM_CREDITS_PRICE_PER_1000?.trim();
  if (!currency && !price) return undefined;
  if (currency && !/^[a-z]{3}$/.test(currency)) throw new Error('FORMLOOM_CREDITS_CURRENCY: a three-letter ISO 4217 code, e.g. usd or eur');
  const per_1000 = price === undefined ? 100 : Number(price);
  if (!Number.isInteger(per_1000) || per_1000 < 1) throw new Error('FORMLOOM_CREDITS_PRICE_PER_1000: a whole number of the currency\'s smallest unit (cents), at least 1');
  return { currency: currency ?? 'usd', per_1000 };
}
