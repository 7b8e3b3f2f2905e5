import type { TestFn } from 'ava';
import { PaymentProcessorError, PaymentSignatureError, type PaymentProcessor } from '../ports/payments';

/** A signed event as the processor delivers it: its id, raw body and signature header. */
export interface SignedProcessorEvent {
  id: string;
  body: Uint8Array;
  signature: string;
}

/** What an event in the suite is about (the harness builds it the processor's way, from its own state). */
export type ConformanceEvent =
  | { type: 'payment_succeeded'; payment_id: string }
  | { type: 'payment_failed'; payment_id: string }
  | { type: 'refunded'; payment_id: string }
  | { type: 'checkout_completed'; session_id: string }
  | { type: 'account_updated'; account_id: string }
  | { type: 'unhandled' };

export interface PaymentProcessorHarness {
  /** Prefix of every test title. */
  name: string;
  /** A processor of the adapter under test, pointed at the processor's API (a local stand-in in tests). */
  create(): PaymentProcessor | Promise<PaymentProcessor>;
  /** The payer pays (what the processor's browser element leads to on the respondent's page). */
  settle(paymentId: string): Promise<void>;
  /** The buyer pays on the hosted checkout page. */
  completeCheckout(sessionId: string): Promise<void>;
  /** The owner finishes onboarding of a connected account. */
  finishOnboarding(accountId: string): Promise<void>;
  /** A signed event; `wrongSecret` signs it with another secret than the processor's. */
  event(what: ConformanceEvent, options?: { wrongSecret?: boolean }): Promise<SignedProcessorEvent>;
}

const key = (t: { title: string }, n = 0) => `conf-${t.title.length}-${n}-${Math.random().toString(36).slice(2)}`;

/**
 * The payments port's processor contract (docs/payments.md): payments created once per idempotency key, read
 * back, refunded in part and in full with refusals as PaymentProcessorError, Checkout Sessions, connected
 * accounts with onboarding links, and events verified (a wrong signature or a changed byte is refused) and
 * reduced to what Formloom acts on.
 */
export function paymentProcessorConformance(test: TestFn, harness: PaymentProcessorHarness) {
  const name = (s: string) => `${harness.name}: ${s}`;
  let made: Promise<PaymentProcessor> | undefined;
  const processor = () => (made ??= Promise.resolve(harness.create()));

  test(name('createPayment: a payment to confirm, once per idempotency key'), async (t) => {
    const p = await processor();
    const k = key(t);
    const a = await p.createPayment({ amount: 1250, currency: 'EUR', idempotency_key: k, metadata: { response_id: 'rsp_1' } });
    t.is(a.status, 'requires_payment');
    t.is(a.amount, 1250);
    t.is(a.currency, 'eur');
    t.is(a.amount_refunded, 0);
    t.is(a.destination, null);
    t.truthy(a.client_secret);
    t.is(a.metadata.response_id, 'rsp_1');
    const again = await p.createPayment({ amount: 1250, currency: 'EUR', idempotency_key: k, metadata: { response_id: 'rsp_1' } });
    t.is(again.id, a.id, 'the same key gives the same payment');
    const other = await p.createPayment({ amount: 1250, currency: 'EUR', idempotency_key: key(t, 1), metadata: {} });
    t.not(other.id, a.id);
  });

  test(name('retrievePayment: succeeded once paid; an unknown id is a PaymentProcessorError 404'), async (t) => {
    const p = await processor();
    const a = await p.createPayment({ amount: 500, currency: 'usd', idempotency_key: key(t), metadata: {} });
    t.is((await p.retrievePayment(a.id)).status, 'requires_payment');
    await harness.settle(a.id);
    const paid = await p.retrievePayment(a.id);
    t.is(paid.status, 'succeeded');
    t.is(paid.amount, 500);
    const e = await t.throwsAsync(p.retrievePayment('pi_does_not_exist'), { instanceOf: PaymentProcessorError });
    t.is(e!.status, 404);
  });

  test(name('refund: in part, then the rest; more than is left is refused'), async (t) => {
    const p = await processor();
    const a = await p.createPayment({ amount: 1000, currency: 'eur', idempotency_key: key(t), metadata: {} });
    await harness.settle(a.id);
    const part = await p.refund({ payment_id: a.id, amount: 300, idempotency_key: key(t, 1) });
    t.is(part.amount, 300);
    t.is(part.payment_id, a.id);
    t.is((await p.retrievePayment(a.id)).amount_refunded, 300);
    const tooMuch = await t.throwsAsync(p.refund({ payment_id: a.id, amount: 800, idempotency_key: key(t, 2) }), { instanceOf: PaymentProcessorError });
    t.is(tooMuch!.status, 400);
    const rest = await p.refund({ payment_id: a.id, idempotency_key: key(t, 3) });
    t.is(rest.amount, 700);
    t.is((await p.retrievePayment(a.id)).amount_refunded, 1000);
  });

  test(name('refund: an unpaid payment is refused'), async (t) => {
    const p = await processor();
    const a = await p.createPayment({ amount: 1000, currency: 'eur', idempotency_key: key(t), metadata: {} });
    await t.throwsAsync(p.refund({ payment_id: a.id, idempotency_key: key(t, 1) }), { instanceOf: PaymentProcessorError });
  });

  test(name('createCheckout: a hosted page, once per idempotency key; its completion is a signed event with the metadata'), async (t) => {
    const p = await processor();
    const k = key(t);
    const req = { unit_amount: 1, quantity: 500, currency: 'eur', product_name: '500 voice credits', success_url: 'http://localhost/ok', cancel_url: 'http://localhost/no', idempotency_key: k, metadata: { user_id: 'usr_1', credits: '500' } };
    const s = await p.createCheckout(req);
    t.regex(s.url, /^https:\/\//);
    t.is((await p.createCheckout(req)).id, s.id);
    await harness.completeCheckout(s.id);
    const signed = await harness.event({ type: 'checkout_completed', session_id: s.id });
    const e = p.parseEvent(signed.body, signed.signature);
    t.is(e.id, signed.id);
    if (e.kind !== 'checkout_completed') return t.fail(`kind ${e.kind}`);
    t.is(e.session.id, s.id);
    t.true(e.session.paid);
    t.is(e.session.amount_total, 500);
    t.deepEqual(e.session.metadata, { user_id: 'usr_1', credits: '500' });
  });

  test(name('connected accounts: created, onboarding link, enabled once onboarded; destination charges'), async (t) => {
    const p = await processor();
    const acct = await p.createConnectedAccount({ email: 'owner@example.com', idempotency_key: key(t) });
    t.false(acct.charges_enabled);
    const link = await p.createOnboardingLink({ account: acct.id, refresh_url: 'http://localhost/r', return_url: 'http://localhost/b' });
    t.regex(link.url, /^https:\/\//);
    await harness.finishOnboarding(acct.id);
    t.true((await p.retrieveConnectedAccount(acct.id)).charges_enabled);
    const signed = await harness.event({ type: 'account_updated', account_id: acct.id });
    const e = p.parseEvent(signed.body, signed.signature);
    t.like(e, { kind: 'account', account: { id: acct.id, charges_enabled: true } });
    const pay = await p.createPayment({ amount: 2000, currency: 'eur', idempotency_key: key(t, 1), metadata: {}, destination: acct.id });
    t.is(pay.destination, acct.id);
  });

  test(name('parseEvent: payment events, refunds and others reduced; a wrong secret or a changed byte refused'), async (t) => {
    const p = await processor();
    const a = await p.createPayment({ amount: 700, currency: 'eur', idempotency_key: key(t), metadata: { response_id: 'rsp_9' } });
    await harness.settle(a.id);
    const ok = await harness.event({ type: 'payment_succeeded', payment_id: a.id });
    const e = p.parseEvent(ok.body, ok.signature);
    t.like(e, { kind: 'payment', id: ok.id, payment: { id: a.id, status: 'succeeded', amount: 700, currency: 'eur', metadata: { response_id: 'rsp_9' } } });
    const failed = await harness.event({ type: 'payment_failed', payment_id: a.id });
    t.like(p.parseEvent(failed.body, failed.signature), { kind: 'payment', payment: { status: 'failed' } });
    await p.refund({ payment_id: a.id, amount: 200, idempotency_key: key(t, 1) });
    const refunded = await harness.event({ type: 'refunded', payment_id: a.id });
    t.like(p.parseEvent(refunded.body, refunded.signature), { kind: 'refund', payment_id: a.id, amount_refunded: 200 });
    const other = await harness.event({ type: 'unhandled' });
    t.like(p.parseEvent(other.body, other.signature), { kind: 'other', id: other.id });

    const wrong = await harness.event({ type: 'payment_succeeded', payment_id: a.id }, { wrongSecret: true });
    t.throws(() => p.parseEvent(wrong.body, wrong.signature), { instanceOf: PaymentSignatureError });
    const changed = Uint8Array.from(ok.body);
    changed[changed.length - 2] = changed[changed.length - 2] === 0x20 ? 0x0a : 0x20;
    t.throws(() => p.parseEvent(changed, ok.signature), { instanceOf: PaymentSignatureError });
    t.throws(() => p.parseEvent(ok.body, ''), { instanceOf: PaymentSignatureError });
  });
}
