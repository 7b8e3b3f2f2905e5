import test from '../helpers/bounded-test';
import { stripePayments, stripePlugin } from '@formloom/payments-stripe';
import { FakeStripe } from '@formloom/payments-stripe/testing';
import { forEachDb, type TestApp } from '../helpers/app';
import { download, sheetCells } from '../helpers/xlsx-cells';

/*
 * Payment questions (docs/payments.md): publish checks, the amount computed by the server from the stored answers
 * (fixed or a logic variable), completion only once paid (asked of the processor when its event is late), the
 * processor's event completing a response whose page was closed, refunds. Stripe is a local server (FakeStripe).
 */
let fake!: FakeStripe;
const started = FakeStripe.start().then((f) => (fake = f));
test.before(() => started);
test.after.always(() => fake?.close());
const stripe = () => ({
  ...stripePlugin({ secretKey: 'sk_placeholder', webhookSecret: 'whsec_placeholder', publishableKey: 'pk_placeholder' }),
  adapters: { payments: (ctx: any) => stripePayments({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 })(ctx) },
});

const deliver = (app: TestApp, e: { body: Buffer; signature: string }) =>
  fetch(`${app.url}/api/v1/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': e.signature }, body: e.body }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** A published form: a name, a plan that sets the `total` variable, then the payment (fixed or from the variable). */
async function paidForm(app: TestApp, key: string, payment: Record<string, unknown>) {
  const created = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Deposit',
      variables: { total: 0 },
      questions: [
        { type: 'short_text', title: 'Name', required: true },
        {
          type: 'multiple_choice', title: 'Plan', properties: { choices: [{ label: 'Gold' }, { label: 'Silver' }] },
          logic_jumps: [
            { conditions: [{ op: 'equals', value: 'Gold' }], actions: [{ variable: 'total', op: 'add', value: 40 }] },
            { conditions: [{ op: 'equals', value: 'Silver' }], actions: [{ variable: 'total', op: 'add', value: 10.5 }] },
          ],
        },
        { type: 'payment', title: 'Deposit', properties: payment },
      ],
    },
  });
  const put = await app.api('PUT', `/forms/${created.body.id}`, { key, body: { published: true } });
  if (put.status !== 200) throw new Error(JSON.stringify(put.body));
  const [name, plan, pay] = created.body.questions.map((q: any) => q.id);
  return { id: created.body.id as string, slug: created.body.slug as string, name, plan, pay };
}

async function partial(app: TestApp, slug: string, answers: Array<{ question_id: string; value: unknown }>) {
  const r = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers, completed: false } });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return { id: r.body.id as string, token: r.body.resume_token as string };
}

const pay = (app: TestApp, slug: string, r: { id: string; token: string }, questionId: string) =>
  app.api('POST', `/public/forms/${slug}/responses/${r.id}/payment`, { body: { question_id: questionId }, headers: { 'x-resume-token': r.token } });
const complete = (app: TestApp, slug: string, r: { id: string; token: string }) =>
  app.api('PATCH', `/public/forms/${slug}/responses/${r.id}`, { body: { completed: true }, headers: { 'x-resume-token': r.token } });

forEachDb(
  test,
  (t) => {
    t('publish checks beside the question: amount, currency, the owner\'s own account for Connect', async (tt, app) => {
      const u = await app.user('pro');
      for (const [props, reason] of [[{ currency: 'EUR' }, 'payment_amount_missing'], [{ amount: 5 }, 'payment_currency_missing'], [{ amount: 5, currency: 'EUR', provider: 'connect' }, 'payment_account_not_connected']] as const) {
        const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'P', questions: [{ type: 'payment', title: 'Pay', properties: props }] } });
        const res = await app.api('POST', `/forms/${created.body.id}/publish`, { key: u.key });
        tt.like(res, { status: 409, body: { error: { reason, question_ids: [created.body.questions[0].id] } } }, reason);
      }
    });

    t('a fixed amount: paid on the page, completed only once the payment succeeded; a direct completion is refused', async (tt, app) => {
      const u = await app.user();
      const f = await paidForm(app, u.key, { amount: 12.5, currency: 'EUR', description: 'Booking deposit' });
      const direct = await app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [{ question_id: f.name, value: 'Ada' }, { question_id: f.plan, value: 'Gold' }] } });
      tt.like(direct, { status: 409, body: { error: { reason: 'payment_required', question_ids: [f.pay] } } });
      const r = await partial(app, f.slug, [{ question_id: f.name, value: 'Ada' }, { question_id: f.plan, value: 'Gold' }]);
      const started = await pay(app, f.slug, r, f.pay);
      tt.is(started.status, 200, JSON.stringify(started.body));
      tt.like(started.body, { status: 'requires_payment', amount: 1250, currency: 'eur', processor: 'stripe', publishable_key: fake.publishableKey });
      tt.truthy(started.body.client_secret);
      const pi = [...fake.paymentIntents.values()].find((p) => p.client_secret === started.body.client_secret)!;
      tt.deepEqual(pi.metadata, { formloom: 'payment_question', form_id: f.id, response_id: r.id, question_id: f.pay });
      tt.is(pi.description, 'Booking deposit');
      tt.is((await pay(app, f.slug, r, f.pay)).body.client_secret, started.body.client_secret, 'asking again gives the same payment');
      tt.like(await pay(app, f.slug, { ...r, token: 'wrong' }, f.pay), { status: 401 });
      tt.like(await complete(app, f.slug, r), { status: 409, body: { error: { reason: 'payment_required' } } });
      // Paid; the processor's event has not arrived: completion asks the processor.
      fake.succeed(pi.id);
      tt.like(await complete(app, f.slug, r), { status: 200 });
      const payments = await app.api('GET', `/forms/${f.id}/responses/${r.id}/payments`, { key: u.key });
      tt.like(payments.body.payments, [{ question_id: f.pay, amount: 1250, currency: 'eur', status: 'succeeded', amount_refunded: 0, processor_payment_id: pi.id }]);
      // The late event changes nothing; a repeat is a duplicate.
      const e = fake.event('payment_intent.succeeded', pi);
      tt.like(await deliver(app, e), { status: 200, body: { duplicate: false } });
      tt.like(await deliver(app, e), { status: 200, body: { duplicate: true } });
      const listed = (await app.api('GET', `/forms/${f.id}/responses?completed=true`, { key: u.key })).body;
      tt.is(listed.total, 1);
      tt.like(listed.responses[0].payments, [{ amount: 1250, currency: 'eur', status: 'succeeded' }]);
      tt.like((await app.api('GET', `/forms/${f.id}/responses/${r.id}`, { key: u.key })).body.payments, [{ question_id: f.pay, status: 'succeeded' }]);
    });

    t('an amount from a logic variable, computed from the stored answers; new answers give a new amount', async (tt, app) => {
      const u = await app.user();
      const f = await paidForm(app, u.key, { amount_variable: 'total', currency: 'usd' });
      const r = await partial(app, f.slug, [{ question_id: f.name, value: 'Ada' }, { question_id: f.plan, value: 'Gold' }]);
      const gold = await pay(app, f.slug, r, f.pay);
      tt.like(gold.body, { amount: 4000, currency: 'usd' });
      await app.api('PATCH', `/public/forms/${f.slug}/responses/${r.id}`, { body: { answers: [{ question_id: f.plan, value: 'Silver' }] }, headers: { 'x-resume-token': r.token } });
      const silver = await pay(app, f.slug, r, f.pay);
      tt.like(silver.body, { amount: 1050, currency: 'usd', payment_id: gold.body.payment_id });
      tt.not(silver.body.client_secret, gold.body.client_secret);
      const none = await partial(app, f.slug, [{ question_id: f.name, value: 'Bo' }]);
      tt.like(await pay(app, f.slug, none, f.pay), { status: 409, body: { error: { reason: 'payment_amount_invalid' } } });
    });

    t('the page was closed after paying: payment_intent.succeeded completes the response, once, its webhook carrying the payment; refunds from the owner', async (tt, app) => {
      const u = await app.user('pro');
      const f = await paidForm(app, u.key, { amount: 30, currency: 'EUR' });
      tt.is((await app.api('PUT', `/forms/${f.id}/webhooks`, { key: u.key, body: { url: 'https://hooks.example.com/paid' } })).status, 200);
      const r = await partial(app, f.slug, [{ question_id: f.name, value: 'Cy' }, { question_id: f.plan, value: 'Gold' }]);
      const started = await pay(app, f.slug, r, f.pay);
      const pi = fake.succeed([...fake.paymentIntents.values()].find((p) => p.client_secret === started.body.client_secret)!.id);
      const e = fake.event('payment_intent.succeeded', pi);
      const results = await Promise.all(Array.from({ length: 5 }, () => deliver(app, e)));
      tt.is(results.filter((x) => x.status === 200 && !x.body.duplicate).length, 1);
      const got = await app.api('GET', `/forms/${f.id}/responses/${r.id}`, { key: u.key });
      tt.truthy(got.body.completed_at);
      tt.like(await complete(app, f.slug, r), { status: 409, body: { error: { reason: 'response_completed' } } });
      const deliveries = await app.raw(app.kind === 'postgres' ? 'SELECT body FROM webhook_deliveries WHERE response_id = $1' : 'SELECT body FROM webhook_deliveries WHERE response_id = ?', [r.id]);
      tt.is(deliveries.length, 1, 'one webhook delivery for the completion');
      tt.like(JSON.parse(deliveries[0].body).response.payments, [{ amount: 3000, currency: 'eur', status: 'succeeded' }]);

      const refund = (body: unknown) => app.api('POST', `/forms/${f.id}/responses/${r.id}/payments/${started.body.payment_id}/refund`, { key: u.key, body });
      tt.like(await refund({ amount: 500 }), { status: 200, body: { status: 'partially_refunded', amount_refunded: 500 } });
      tt.like(await refund({ amount: 5000 }), { status: 409, body: { error: { reason: 'refund_too_large' } } });
      tt.like(await refund({}), { status: 200, body: { status: 'refunded', amount_refunded: 3000 } });
      tt.like(await refund({}), { status: 409 });
      tt.is(fake.charges.get(pi.latest_charge)!.amount_refunded, 3000);
      // The CSV export: four payment columns per payment question, as the payment stands now (refunded).
      const csv = await app.api('GET', `/forms/${f.id}/responses/export`, { key: u.key });
      const [header, row] = csv.text.split('\r\n');
      tt.true(header!.endsWith(',Deposit - payment amount,Deposit - payment currency,Deposit - payment status,Deposit - payment id'), header);
      tt.true(row!.startsWith(`${r.id},`));
      tt.true(row!.endsWith(`,30.00,EUR,refunded,${pi.id}`), row);
      // The XLSX and JSON exports carry the same: the amount as a number in the main unit.
      const { rows, formats } = await sheetCells((await download(app, `/forms/${f.id}/responses/export?format=xlsx`, u.key)).bytes);
      const titles = rows[0]!.map(String);
      const at = titles.indexOf('Deposit - payment amount');
      tt.deepEqual(titles.slice(at, at + 4), ['Deposit - payment amount', 'Deposit - payment currency', 'Deposit - payment status', 'Deposit - payment id']);
      tt.deepEqual(rows[1]!.slice(at, at + 4), [30, 'EUR', 'refunded', pi.id]);
      tt.is(formats[1]![at], '0.00', 'shown with the currency\'s two digits');
      const json = await app.api('GET', `/forms/${f.id}/responses/export?format=json`, { key: u.key });
      tt.deepEqual(json.body[0].payments, [{ question_id: f.pay, amount: 30, currency: 'EUR', status: 'refunded', id: pi.id }]);
      tt.false(json.body[0].answers.some((a: { question_id: string }) => a.question_id === f.pay), 'not an answer');
      const other = await app.user();
      tt.like(await app.api('POST', `/forms/${f.id}/responses/${r.id}/payments/${started.body.payment_id}/refund`, { key: other.key, body: {} }), { status: 403 });
    });

    t('partial refunds with an Idempotency-Key: a retry or a repeat at once refunds once; the key with another amount is a conflict', async (tt, app) => {
      const u = await app.user();
      const f = await paidForm(app, u.key, { amount: 30, currency: 'EUR' });
      const r = await partial(app, f.slug, [{ question_id: f.name, value: 'Di' }, { question_id: f.plan, value: 'Gold' }]);
      const started = await pay(app, f.slug, r, f.pay);
      const pi = fake.succeed([...fake.paymentIntents.values()].find((p) => p.client_secret === started.body.client_secret)!.id);
      tt.like(await complete(app, f.slug, r), { status: 200 });
      const refund = (amount: number | undefined, key?: string) =>
        app.api('POST', `/forms/${f.id}/responses/${r.id}/payments/${started.body.payment_id}/refund`, { key: u.key, body: amount === undefined ? {} : { amount }, headers: key ? { 'idempotency-key': key } : {} });
      const refunds = () => fake.charges.get(pi.latest_charge)!.amount_refunded;
      // Four at once with one key, then a retry: €7.50 leaves once.
      const at = await Promise.all(Array.from({ length: 4 }, () => refund(750, 'refund-attempt-1')));
      tt.true(at.every((x) => x.status === 200), JSON.stringify(at.map((x) => x.body)));
      tt.true(at.every((x) => x.body.amount_refunded === 750 && x.body.status === 'partially_refunded'));
      tt.like(await refund(750, 'refund-attempt-1'), { status: 200, body: { amount_refunded: 750 } });
      tt.is(refunds(), 750);
      tt.like(await refund(500, 'refund-attempt-1'), { status: 409, body: { error: { reason: 'idempotency_conflict' } } });
      tt.like(await refund(750, 'x'.repeat(256)), { status: 400 });
      // Another key is another refund; then the rest, retried: refunded once.
      tt.like(await refund(250, 'refund-attempt-2'), { status: 200, body: { amount_refunded: 1000 } });
      tt.like(await refund(2500, 'refund-attempt-3'), { status: 409, body: { error: { reason: 'refund_too_large' } } });
      tt.like(await refund(undefined, 'refund-attempt-3'), { status: 200, body: { amount_refunded: 3000, status: 'refunded' } });
      tt.like(await refund(undefined, 'refund-attempt-3'), { status: 200, body: { amount_refunded: 3000, status: 'refunded' } });
      tt.is(refunds(), 3000);
      tt.is(fake.requests.filter((x) => x.path === '/v1/refunds' && x.body.payment_intent === pi.id).length >= 3, true);
      tt.like((await app.api('GET', `/forms/${f.id}/responses/${r.id}/payments`, { key: u.key })).body.payments, [{ amount_refunded: 3000, status: 'refunded' }]);
    });
  },
  { plugins: [stripe()] },
);
