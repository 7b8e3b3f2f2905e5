import test from 'ava';
import { paymentProcessorConformance } from '@formloom/core/testing';
import { createStripeProcessor } from '../src/index';
import { FakeStripe } from '../src/testing';

// The Stripe adapter against a local server speaking Stripe's API (the SDK pointed at it by host/port/protocol).
let fake: FakeStripe;
test.before(async () => {
  fake = await FakeStripe.start();
});
test.after.always(() => fake?.close());

paymentProcessorConformance(test, {
  name: 'stripe',
  create: () => createStripeProcessor({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 }),
  settle: async (id) => void fake.succeed(id),
  completeCheckout: async (id) => void fake.completeCheckout(id),
  finishOnboarding: async (id) => void fake.enableAccount(id),
  event: async (what, o) => fake.conformanceEvent(what, o?.wrongSecret),
});

test('stripe: the SDK sends our idempotency keys and the destination of a Connect payment', async (t) => {
  const p = createStripeProcessor({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 });
  await p.createPayment({ amount: 900, currency: 'eur', idempotency_key: 'pay-rsp_x-q_y', metadata: {}, destination: 'acct_z' });
  const sent = fake.requests.find((r) => r.idempotencyKey === 'pay-rsp_x-q_y');
  t.like(sent, { method: 'POST', path: '/v1/payment_intents', body: { amount: '900', currency: 'eur', transfer_data: { destination: 'acct_z' } } });
});

test('stripe: an empty key is refused when the adapter is made, naming the variable', (t) => {
  t.throws(() => createStripeProcessor({ secretKey: '', webhookSecret: 'w', publishableKey: 'p' }), { message: /FORMLOOM_STRIPE_SECRET_KEY/ });
});
