// The Stripe adapter of the payments port (docs/payments.md).
export { createStripeProcessor, type StripeProcessorOptions } from './stripe-processor';
export { stripePayments, stripePlugin, stripeOptionsFromEnv } from './stripe-plugin';
