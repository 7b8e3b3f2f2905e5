import { z } from 'zod';
import { defineRoute, definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { ConnectAccounts, onboardingOut, onboardingSchema, paymentAccountOut } from './connect-accounts';
import { CreditCheckouts, creditCheckoutOut, creditCheckoutSchema, creditPriceOut } from './credit-checkouts';
import { PaymentEvents, webhookOut } from './payment-events';
import { PaymentRefunds } from './payment-refunds';
import { PaymentQuestions, paymentOut, presentPayment, refundSchema, startPaymentOut, startPaymentSchema } from './payment-questions';
import { authorizeForm } from '../forms/form-access';

export * from './processor';
export * from './credit-checkouts';
export * from './payment-events';
export * from './connect-accounts';
export * from './payment-questions';
export * from './amounts';
export { PaymentRefunds } from './payment-refunds';

const IDEMPOTENCY = [
  { name: 'Idempotency-Key', description: 'Any 1 to 255 characters: a retry with the same key answers the same Checkout Session', schema: { type: 'string', minLength: 1, maxLength: 255 } },
];

/**
 * Payments (docs/payments.md): the processor's webhook, voice credits bought through Checkout, and owners' own
 * accounts (Connect) for payment questions. Payment questions themselves run in the responses area.
 */
export const paymentsArea = definePlugin({
  name: 'payments',
  version: CORE_VERSION,
  services: [PaymentEvents, CreditCheckouts, ConnectAccounts, PaymentQuestions, PaymentRefunds],
  routes: (ctx) => [
    defineRoute({
      method: 'post', path: '/payments/webhook', scope: 'public', operationId: 'receivePaymentEvent', tags: ['Payments'],
      summary:
        "The payment processor's events (Stripe: the endpoint's URL in its dashboard, events payment_intent.*, charge.refunded, checkout.session.completed and async_payment_succeeded, account.updated): verified against the Stripe-Signature header with the webhook secret, each event applied once (a repeat answers duplicate: true); 400 reason invalid_signature when it does not verify, 409 payments_not_configured without a processor",
      rawBody: true,
      accepts: { 'application/json': z.object({ id: z.string(), type: z.string() }).passthrough() },
      headers: [{ name: 'Stripe-Signature', description: "The processor's signature over the raw body", required: true }],
      success: { status: 200, description: '{received: true, duplicate}', schema: webhookOut }, errors: [400, 409],
      handler: async (req) => ({ body: await ctx.service(PaymentEvents).receive(req.rawBody, req.headers['stripe-signature']) }),
    }),
    defineRoute({
      method: 'post', path: '/public/forms/:slug/responses/:responseId/payment', scope: 'public', operationId: 'startResponsePayment', tags: ['Payments'],
      summary:
        "The respondent's page asks for the payment of a payment question of its partial response (X-Resume-Token): the server computes the amount from the stored answers (a fixed amount or a logic variable) and answers the processor's client secret for its payment form; the same answers give back the same payment. 409 payment_not_on_path, payment_amount_invalid, payment_account_not_connected, payments_not_configured",
      body: startPaymentSchema,
      headers: [{ name: 'X-Resume-Token', description: 'The resume token of the partial response', required: true }],
      success: { status: 200, description: 'The payment to confirm in the browser', schema: startPaymentOut }, errors: [400, 401, 404, 409],
      handler: async (req) => ({ body: await ctx.service(PaymentQuestions).start(String(req.params.slug), String(req.params.responseId), req.headers['x-resume-token'], req.body) }),
    }),
    defineRoute({
      method: 'get', path: '/forms/:id/responses/:responseId/payments', scope: 'forms', operationId: 'listResponsePayments', tags: ['Payments'],
      summary: "A response's payments (one per payment question reached): amount, currency, status, what was refunded",
      success: { status: 200, description: '{payments}', schema: z.object({ payments: z.array(paymentOut) }) }, errors: [401, 403, 404],
      handler: async (req) => {
        await authorizeForm(ctx.ports.storage, req.principal, String(req.params.id), 'read');
        const all = await ctx.ports.storage.payments.forResponses([String(req.params.responseId)]);
        return { body: { payments: all.filter((p) => p.form_id === String(req.params.id)).map(presentPayment) } };
      },
    }),
    defineRoute({
      method: 'post', path: '/forms/:id/responses/:responseId/payments/:paymentId/refund', scope: 'forms', operationId: 'refundResponsePayment', tags: ['Payments'],
      summary:
        "Refunds a response's payment at the processor: what is left of it, or `amount` (smallest currency unit). Who may delete the form's responses may refund. With an Idempotency-Key, a retry refunds nothing more and answers the first result. 409 payment_not_refundable, refund_too_large, processor_refused, idempotency_conflict",
      body: refundSchema,
      headers: [{ name: 'Idempotency-Key', description: 'Any 1 to 255 characters, remembered 24 hours: a retry with the same key and amount refunds nothing more and answers the first result', schema: { type: 'string', minLength: 1, maxLength: 255 } }],
      success: { status: 200, description: 'The payment after the refund', schema: paymentOut }, errors: [400, 401, 403, 404, 409],
      handler: async (req) => ({
        body: await ctx.service(PaymentRefunds).refund(req.principal, String(req.params.id), String(req.params.responseId), String(req.params.paymentId), req.body, req.headers['idempotency-key']),
      }),
    }),
    defineRoute({
      method: 'get', path: '/payments/account', scope: 'forms', operationId: 'getPaymentAccount', tags: ['Payments'],
      summary: "Whether this server takes payments, and the caller's own account for payment questions with provider \"connect\" (refreshed from the processor until onboarding is finished)",
      success: { status: 200, description: '{configured, connected, account_id, charges_enabled, connect_allowed}', schema: paymentAccountOut }, errors: [401, 409],
      handler: async (req) => ({ body: await ctx.service(ConnectAccounts).status(req.principal) }),
    }),
    defineRoute({
      method: 'post', path: '/payments/account/onboarding', scope: 'forms', operationId: 'startPaymentOnboarding', tags: ['Payments'],
      summary:
        "A one-time link to the processor's onboarding of the caller's own account (made on first use), for payment questions with provider \"connect\"; the processor sends the owner back to return_path (default /account). Pro plan or higher (403 payment_connect_requires_pro); 409 payments_not_configured",
      body: onboardingSchema,
      success: { status: 201, description: '{url}', schema: onboardingOut }, errors: [400, 401, 403, 409],
      handler: async (req) => ({ status: 201, body: await ctx.service(ConnectAccounts).onboard(req.principal, req.body) }),
    }),
    defineRoute({
      method: 'get', path: '/voice/credits/price', scope: 'voice', operationId: 'getVoiceCreditPrice', tags: ['Voice'],
      summary: 'What 1,000 voice credits cost through "Buy credits", and whether they can be bought on this server (a payment processor is configured)',
      success: { status: 200, description: '{data: {available, currency, per_1000}}', schema: creditPriceOut }, errors: [401, 403],
      handler: async () => ({ body: ctx.service(CreditCheckouts).price() }),
    }),
    defineRoute({
      method: 'post', path: '/voice/credits/checkout', scope: 'voice', operationId: 'startVoiceCreditCheckout', tags: ['Voice'],
      summary:
        "Buys voice credits (1,000 to 1,000,000): a Checkout Session at the server's price (per 1,000, the total rounded up to the currency's smallest unit); send the buyer to data.url. The credits are added once the processor reports the payment (checkout.session.completed), exactly once. 409 payments_not_configured",
      body: creditCheckoutSchema,
      headers: IDEMPOTENCY,
      success: { status: 201, description: 'The checkout, with the url to send the buyer to', schema: creditCheckoutOut }, errors: [400, 401, 403, 409],
      handler: async (req) => ({ status: 201, body: await ctx.service(CreditCheckouts).start(req.principal, req.body, req.headers['idempotency-key']) }),
    }),
  ],
});
