import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createFormloom } from '@formloom/core';
import { stripePayments, stripePlugin } from '@formloom/payments-stripe';
import { FakeStripe } from '@formloom/payments-stripe/testing';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';
import { forEachDb, startTestApp, type TestApp } from '../helpers/app';

/*
 * Payments (docs/payments.md): voice credits bought through Checkout, the processor's webhook verified and each
 * event applied once (duplicates, concurrent deliveries, two events of one checkout, two instances), Connect
 * onboarding, and an instance without a processor. Stripe is a local server speaking its API (FakeStripe).
 */
let fake!: FakeStripe;
const started = FakeStripe.start().then((f) => (fake = f));
test.before(() => started);
test.after.always(() => fake?.close());
// Options read when an instance is made (after test.before): the fake's port is known by then.
const stripe = () => ({
  ...stripePlugin({ secretKey: 'sk_placeholder', webhookSecret: 'whsec_placeholder', publishableKey: 'pk_placeholder' }),
  adapters: { payments: (ctx: any) => stripePayments({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 })(ctx) },
});

async function voiceUser(app: TestApp, plan: 'free' | 'pro' = 'free') {
  const user = await app.formloom.accounts.createUser({ email: `buyer${Date.now()}${Math.random().toString(36).slice(2)}@example.com`, plan });
  const { api_key } = await app.formloom.accounts.createKey(user.id, { scope: 'voice' });
  const forms = await app.formloom.accounts.createKey(user.id);
  return { id: user.id, email: user.email, key: api_key, formsKey: forms.api_key };
}

const deliver = (url: string, e: { body: Buffer; signature: string }) =>
  fetch(`${url}/api/v1/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': e.signature }, body: e.body }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

const balance = async (app: TestApp, key: string) => (await app.api('GET', '/voice/credits', { key })).body.data.balance as number;

forEachDb(
  test,
  (t) => {
    t('Buy credits: a Checkout Session at the server price; checkout.session.completed adds the credits once, whatever the deliveries', async (tt, app) => {
      const u = await voiceUser(app);
      const price = await app.api('GET', '/voice/credits/price', { key: u.key });
      tt.deepEqual(price.body.data, { object: 'voice.credit_price', available: true, currency: 'usd', per_1000: 100 });
      const res = await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits: 5000 }, headers: { 'idempotency-key': 'buy-1' } });
      tt.is(res.status, 201);
      tt.like(res.body.data, { object: 'voice.credit_checkout', credits: 5000, amount: 500, currency: 'usd', status: 'open' });
      tt.regex(res.body.data.url, /^https:\/\/checkout\.stripe\.com\//);
      const session = fake.sessions.get(res.body.data.id)!;
      tt.is(session.customer_email, u.email);
      tt.is(session.success_url, `${app.url}/voice/credits?checkout=success`);
      tt.deepEqual(session.metadata, { formloom: 'voice_credits', user_id: u.id, credits: '5000' });
      const again = await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits: 5000 }, headers: { 'idempotency-key': 'buy-1' } });
      tt.is(again.body.data.id, res.body.data.id, 'a retried request answers the same checkout');

      // Unpaid yet: a completed session whose payment is pending adds nothing.
      const unpaid = fake.event('checkout.session.completed', { ...session, status: 'complete', payment_status: 'unpaid' });
      tt.like(await deliver(app.url, unpaid), { status: 200, body: { received: true, duplicate: false } });
      tt.is(await balance(app, u.key), 0);

      fake.completeCheckout(session.id);
      const paid = fake.event('checkout.session.completed', session);
      // Ten deliveries of one event at once, then the async success event of the same session: credited once.
      const results = await Promise.all(Array.from({ length: 10 }, () => deliver(app.url, paid)));
      tt.true(results.every((r) => r.status === 200));
      tt.is(results.filter((r) => r.body.duplicate === false).length, 1);
      tt.like(await deliver(app.url, fake.event('checkout.session.async_payment_succeeded', session)), { status: 200, body: { duplicate: false } });
      tt.like(await deliver(app.url, paid), { status: 200, body: { duplicate: true } });
      tt.is(await balance(app, u.key), 5000);
      const ledger = (await app.api('GET', '/voice/credits', { key: u.key })).body.data.entries;
      tt.deepEqual(ledger.map((e: any) => [e.kind, e.amount]), [['purchase', 5000]]);
    });

    t('webhook: a wrong secret, a changed body or no signature is a 400 and applies nothing; an event for a session not opened here adds nothing', async (tt, app) => {
      const u = await voiceUser(app);
      const res = await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits: 1000 } });
      const session = fake.completeCheckout(res.body.data.id);
      const wrong = fake.event('checkout.session.completed', session, 'whsec_someone_else');
      tt.like(await deliver(app.url, wrong), { status: 400, body: { error: { code: 'BAD_REQUEST', reason: 'invalid_signature' } } });
      const good = fake.event('checkout.session.completed', session);
      const changed = Buffer.from(good.body.toString().replace('"credits":"1000"', '"credits":"9000"'));
      tt.like(await deliver(app.url, { body: changed, signature: good.signature }), { status: 400, body: { error: { reason: 'invalid_signature' } } });
      tt.like(await deliver(app.url, { body: good.body, signature: '' }), { status: 400 });
      tt.is(await balance(app, u.key), 0);
      const foreign = fake.event('checkout.session.completed', { ...session, id: 'cs_not_ours', metadata: { user_id: u.id, credits: '999000' } });
      tt.like(await deliver(app.url, foreign), { status: 200, body: { duplicate: false } });
      tt.is(await balance(app, u.key), 0);
      tt.like(await deliver(app.url, good), { status: 200 });
      tt.is(await balance(app, u.key), 1000);
    });

    t('checkout: 1,000 to 1,000,000 credits, the price rounded up; a forms key is refused', async (tt, app) => {
      const u = await voiceUser(app);
      const odd = await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits: 1505 } });
      tt.like(odd, { status: 201, body: { data: { credits: 1505, amount: 151, currency: 'usd' } } });
      for (const credits of [0, 999, 2_000_000, 1000.5, '1000']) {
        const r = await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits } });
        tt.is(r.status, 400, `credits ${credits}`);
      }
      tt.is((await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits: 1000, return_path: 'https://evil.example/' } })).status, 400);
      tt.is((await app.api('POST', '/voice/credits/checkout', { key: u.formsKey, body: { credits: 1000 } })).status, 403);
    });

    t('Connect: onboarding needs Pro; the account is made once, and enabled by account.updated', async (tt, app) => {
      const free = await voiceUser(app, 'free');
      const refused = await app.api('POST', '/payments/account/onboarding', { key: free.formsKey, body: {} });
      tt.like(refused, { status: 403, body: { error: { reason: 'payment_connect_requires_pro', upgrade_required: true } } });
      const pro = await voiceUser(app, 'pro');
      tt.like((await app.api('GET', '/payments/account', { key: pro.formsKey })).body, { configured: true, connected: false, charges_enabled: false, connect_allowed: true });
      const first = await app.api('POST', '/payments/account/onboarding', { key: pro.formsKey, body: { return_path: '/account?tab=payments' } });
      tt.is(first.status, 201);
      tt.regex(first.body.url, /^https:\/\/connect\.stripe\.com\//);
      await app.api('POST', '/payments/account/onboarding', { key: pro.formsKey, body: {} });
      const status = (await app.api('GET', '/payments/account', { key: pro.formsKey })).body;
      tt.like(status, { connected: true, charges_enabled: false });
      tt.is([...fake.accounts.values()].filter((a) => a.id === status.account_id).length, 1);
      const enabled = fake.enableAccount(status.account_id);
      tt.like(await deliver(app.url, fake.event('account.updated', enabled)), { status: 200 });
      tt.like((await app.api('GET', '/payments/account', { key: pro.formsKey })).body, { connected: true, charges_enabled: true });
    });
  },
  { plugins: [stripe()] },
);

test('without a processor: checkout and the webhook answer 409 payments_not_configured; the price says unavailable', async (t) => {
  const app = await startTestApp('sqlite');
  t.teardown(() => app.close());
  const u = await voiceUser(app);
  t.like((await app.api('GET', '/voice/credits/price', { key: u.key })).body.data, { available: false });
  t.like(await app.api('POST', '/voice/credits/checkout', { key: u.key, body: { credits: 1000 } }), { status: 409, body: { error: { reason: 'payments_not_configured' } } });
  const e = fake.event('checkout.session.completed', { id: 'cs_x', object: 'checkout.session' });
  t.like(await deliver(app.url, e), { status: 409, body: { error: { reason: 'payments_not_configured' } } });
  // A payment question is a publish check beside it, never a silent skip.
  const owner = await app.user();
  const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Pay', published: true, questions: [{ type: 'payment', title: 'Fee', properties: { amount: 5, currency: 'EUR' } }] } });
  t.like(created, { status: 201, body: { published: false, publish_error: { reason: 'payment_not_configured', question_ids: [created.body.questions[0].id] } } });
  t.like(await app.api('POST', `/forms/${created.body.id}/publish`, { key: owner.key }), { status: 409, body: { error: { reason: 'payment_not_configured' } } });
});

test('two instances on one PostgreSQL: one event delivered to both at once adds the credits once', async (t) => {
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) => createFormloom({ storage, plugins: [stripe()], config: { secretKey: 'shared-key' } }));
  const servers = await Promise.all(
    instances.map((formloom) => new Promise<import('node:http').Server>((resolve) => {
      const app = express();
      app.use('/api/v1', createFormloomRouter({ formloom }));
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  t.teardown(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await storages[1]!.close();
    await db.close();
  });
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  const user = await instances[0]!.accounts.createUser({ email: `two${Date.now()}@example.com` });
  const { api_key } = await instances[0]!.accounts.createKey(user.id, { scope: 'voice' });
  const opened = await fetch(`${urls[0]}/api/v1/voice/credits/checkout`, { method: 'POST', headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' }, body: JSON.stringify({ credits: 3000 }) }).then((r) => r.json() as Promise<any>);
  const paid = fake.event('checkout.session.completed', fake.completeCheckout(opened.data.id));
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => deliver(urls[i % 2]!, paid)));
  t.true(results.every((r) => r.status === 200));
  t.is(results.filter((r) => !r.body.duplicate).length, 1);
  t.is(await instances[1]!.storage.credits.balance(user.id), 3000);
});
