import { definePlugin, localPayments, type AdapterContext, type FormloomPlugin, type Payments } from '@formloom/core';
import { createStripeProcessor, type StripeProcessorOptions } from './stripe-processor';

/**
 * The payments port on Stripe: the processor, plus credits recorded by an operator as before (the CLI's
 * `credits purchase` and the admin area keep working beside Checkout).
 */
export function stripePayments(options: StripeProcessorOptions): (ctx: AdapterContext<unknown>) => Payments {
  const processor = createStripeProcessor(options);
  return (ctx) => ({ purchaseCredits: localPayments(ctx.storage).purchaseCredits, processor });
}

/** A plugin giving an instance the Stripe payments adapter: `createFormloom({ plugins: [stripePlugin(options)] })`. */
export function stripePlugin(options: StripeProcessorOptions): FormloomPlugin<StripeProcessorOptions> {
  return definePlugin({ name: 'payments-stripe', version: '0.1.0', options, adapters: { payments: stripePayments(options) } });
}

/**
 * The adapter's options from `FORMLOOM_STRIPE_*` (docs/configuration.md): null when the secret key is unset
 * (payments not configured); an Error naming what is missing when it is set without the others.
 */
export function stripeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StripeProcessorOptions | null {
  const secretKey = env.FORMLOOM_STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const webhookSecret = env.FORMLOOM_STRIPE_WEBHOOK_SECRET?.trim() ?? '';
  const publishableKey = env.FORMLOOM_STRIPE_PUBLISHABLE_KEY?.trim() ?? '';
  const missing = [!webhookSecret && 'FORMLOOM_STRIPE_WEBHOOK_SECRET', !publishableKey && 'FORMLOOM_STRIPE_PUBLISHABLE_KEY'].filter(Boolean);
  if (missing.length) throw new Error(`FORMLOOM_STRIPE_SECRET_KEY is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not (docs/payments.md)`);
  return { secretKey, webhookSecret, publishableKey, ...(env.FORMLOOM_STRIPE_API_URL ? { apiUrl: env.FORMLOOM_STRIPE_API_URL } : {}) };
}
