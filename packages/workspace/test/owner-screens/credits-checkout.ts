import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import test from '../helpers/bounded-test';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { createFormloom, localPayments, SessionIssuer, type Formloom } from '@formloom/core';
import { createStripeProcessor } from '@formloom/payments-stripe';
import { FakeStripe } from '@formloom/payments-stripe/testing';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter, createPublicPagesRouter } from '@formloom/express';
import { createWorkspaceRouter } from '../../src/server';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * Payments in the workspace (docs/payments.md): "Buy credits" in the Credits tab (the owner picks a pack, goes to
 * Stripe's Checkout page and comes back; the credits arrive with the signed checkout.session.completed), and a
 * refund from a response's detail in the results. Stripe's API is a local server (FakeStripe); its hosted page is
 * the only thing routed in the browser. CREDITS_SHOTS=<dir> keeps screenshots at 390 px and 1280 px.
 */
let fake: FakeStripe;
let formloom: Formloom;
let server: Server;
let url: string;
let browser: Browser;
let closeDb: () => Promise<void>;

test.before(async () => {
  fake = await FakeStripe.start();
  const db = await createTestDatabase('sqlite');
  closeDb = () => db.close();
  const processor = createStripeProcessor({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 });
  formloom = createFormloom({ storage: db.storage, payments: { purchaseCredits: localPayments(db.storage).purchaseCredits, processor }, config: { secretKey: 'test-secret-key', creditPrice: { currency: 'eur', per_1000: 150 } } });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, sessions: { signup: 'closed' }, rateLimits: false, logger: { error: (m, e) => console.error(m, e) } }));
  app.use(createPublicPagesRouter({ formloom }));
  app.use(createWorkspaceRouter({ apiBase: '/api/v1' }));
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  browser = await sharedBrowser();
});
test.after.always(async () => {
  await new Promise((r) => server?.close(r));
  await closeDb?.();
  await fake?.close();
});

async function shot(page: Page, name: string) {
  const dir = process.env.CREDITS_SHOTS;
  if (!dir) return;
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: size.height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

test('an owner buys 10,000 credits: Checkout, back to the Credits tab, the credits added once the payment is confirmed', async (t) => {
  const user = await formloom.accounts.createUser({ email: `buyer${Date.now()}@example.com`, verified: true, first_name: 'Bea', last_name: 'Buyer' });
  const stored = (await formloom.storage.users.findById(user.id))!;
  const { token } = await formloom.service(SessionIssuer).open(formloom.storage, stored, { user_agent: 'test', ip_address: null });
  const { page, errors, close } = await openPage(browser, { cookie: { name: 'formloom_session', value: token, url } });
  // Stripe's hosted Checkout page is outside this server: a stand-in page says where the buyer is.
  await page.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Stripe Checkout</title><main><h1>Pay with Stripe</h1></main>' }),
  );
  try {
    // The page's timers on a clock the test moves (time still flows by itself): its 2 s look for the credits
    // is reached by moving the clock.
    await page.clock.install();
    await page.goto(`${url}/voice/credits`);
    const buy = page.getByRole('button', { name: /^Buy credits · / });
    await buy.waitFor();
    await page.getByRole('combobox', { name: 'How many credits' }).selectOption('10000');
    t.regex((await buy.textContent()) ?? '', /15[.,]00/);
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'buy-credits');
    await buy.click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_/);
    const sessionId = new URL(page.url()).pathname.split('/').pop()!;
    const session = fake.sessions.get(sessionId)!;
    t.like(session, { amount_total: 1500, currency: 'eur', metadata: { credits: '10000', user_id: user.id } });
    t.is(session.success_url, `${url}/voice/credits?checkout=success`);

    // Stripe sends the buyer back at once; its event may arrive a moment later.
    await page.goto(session.success_url);
    await page.getByText('Your credits are added as soon as Stripe confirms it').waitFor();
    const paid = fake.event('checkout.session.completed', fake.completeCheckout(sessionId));
    const delivered = await fetch(`${url}/api/v1/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': paid.signature }, body: paid.body });
    t.is(delivered.status, 200);
    await page.clock.fastForward(2_000);
    await page.getByText('Thank you: your credits were added.').waitFor({ timeout: 60_000 });
    await page.getByText('10,000 credits', { exact: true }).first().waitFor();
    await page.getByRole('list', { name: 'Ledger entries' }).getByText('Purchase').waitFor();
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'credits-added');
    t.is(await formloom.storage.credits.balance(user.id), 10_000);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an owner refunds part of a paid response from its detail, then the rest; a lost answer retried refunds once', async (t) => {
  const user = await formloom.accounts.createUser({ email: `owner${Date.now()}@example.com`, verified: true, first_name: 'Olu', last_name: 'Owner' });
  const key = (await formloom.accounts.createKey(user.id)).api_key;
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const created = await api('POST', '/forms', { title: 'Deposits', published: true, questions: [{ type: 'short_text', title: 'Name', required: true }, { type: 'payment', title: 'Deposit', properties: { amount: 30, currency: 'EUR' } }] });
  t.true(created.body.published, JSON.stringify(created.body));
  const [name, deposit] = created.body.questions.map((q: any) => q.id);
  const partial = await fetch(`${url}/api/v1/public/forms/${created.body.slug}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: [{ question_id: name, value: 'Ada' }], completed: false }) }).then((r) => r.json() as Promise<any>);
  const payment = await fetch(`${url}/api/v1/public/forms/${created.body.slug}/responses/${partial.id}/payment`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-resume-token': partial.resume_token }, body: JSON.stringify({ question_id: deposit }) }).then((r) => r.json() as Promise<any>);
  const piId = payment.client_secret.split('_secret_')[0];
  fake.succeed(piId);
  const done = await fetch(`${url}/api/v1/public/forms/${created.body.slug}/responses/${partial.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-resume-token': partial.resume_token }, body: JSON.stringify({ completed: true }) });
  t.is(done.status, 200);
  const refunded = () => fake.charges.get(fake.paymentIntents.get(piId)!.latest_charge)!.amount_refunded;

  const stored = (await formloom.storage.users.findById(user.id))!;
  const { token } = await formloom.service(SessionIssuer).open(formloom.storage, stored, { user_agent: 'test', ip_address: null });
  const { page, errors, close } = await openPage(browser, { cookie: { name: 'formloom_session', value: token, url } });
  try {
    await page.goto(`${url}/forms/${created.body.id}/results`);
    await page.getByRole('button', { name: /^Responses/ }).click();
    await page.getByRole('cell', { name: '€30.00 · Paid' }).waitFor();
    await page.getByRole('row', { name: /Ada/ }).getByRole('button').first().click();
    const detail = page.getByRole('complementary');
    await detail.getByRole('heading', { name: 'Payments' }).waitFor();
    await detail.getByText(/€30\.00 · Paid/).waitFor();
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'refund-detail');

    // The amount field starts at what is left; what cannot be refunded is said beside it, nothing is sent.
    await detail.getByRole('button', { name: 'Refund…' }).click();
    const amount = detail.getByRole('textbox', { name: /Amount to refund/ });
    t.is(await amount.inputValue(), '30.00');
    await detail.getByRole('button', { name: 'Refund €30.00' }).waitFor();
    for (const [typed, said] of [['40', 'At most €30.00 is left to refund.'], ['7.505', 'Use at most 2 digits after the point.'], ['0', 'Enter an amount above zero.'], ['seven', 'Enter an amount as a number, such as 30.00.']] as const) {
      await amount.fill(typed);
      await detail.getByRole('button', { name: /^Refund/ }).first().click();
      await detail.getByRole('alert').getByText(said).waitFor();
    }
    t.is(await amount.getAttribute('aria-invalid'), 'true');
    t.deepEqual(await axeViolations(page), []);
    await amount.fill('7,50');
    await shot(page, 'partial-refund');

    // The first answer is lost on the way back (the refund was made): the owner tries again, refunded once.
    let lost = false;
    await page.route('**/payments/*/refund', async (route) => {
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await detail.getByRole('button', { name: 'Refund €7.50' }).click();
    await page.getByRole('dialog').getByText('€22.50 stays paid').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund €7.50' }).click();
    await detail.getByRole('alert').getByText(/Try again: the same refund is never made twice/).waitFor();
    t.is(refunded(), 750);
    await detail.getByRole('button', { name: 'Refund €7.50' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund €7.50' }).click();
    await detail.getByText(/€30\.00 · Partly refunded · €7\.50 refunded/).waitFor();
    t.is(refunded(), 750, 'the retry refunded nothing more');
    const keys = fake.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey);
    t.is(new Set(keys).size, 1, 'one idempotency key for the two attempts');
    await page.getByRole('cell', { name: '€30.00 · Partly refunded' }).waitFor();

    // The rest: the field offers €22.50.
    await detail.getByRole('button', { name: 'Refund…' }).click();
    t.is(await detail.getByRole('textbox', { name: /Amount to refund/ }).inputValue(), '22.50');
    await detail.getByRole('button', { name: 'Refund €22.50' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund €22.50' }).click();
    await detail.getByText(/€30\.00 · Refunded · €30\.00 refunded/).waitFor();
    t.false(await detail.getByRole('button', { name: /^Refund/ }).isVisible());
    t.is(refunded(), 3000);
    t.deepEqual(errors.filter((e) => !/Failed to fetch|ERR_CONNECTION_RESET|net::/.test(e)), []);
  } finally {
    await close();
  }
});

test("a Pro owner connects their own Stripe account from a payment question's editor, and the form publishes", async (t) => {
  const user = await formloom.accounts.createUser({ email: `connect${Date.now()}@example.com`, verified: true, plan: 'pro', first_name: 'Cora', last_name: 'Connect' });
  const key = (await formloom.accounts.createKey(user.id)).api_key;
  const created = await fetch(`${url}/api/v1/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Own account', questions: [{ type: 'payment', title: 'Deposit', properties: { amount: 20, currency: 'EUR', provider: 'connect' } }] }),
  }).then((r) => r.json() as Promise<any>);
  const publish = () => fetch(`${url}/api/v1/forms/${created.id}/publish`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  t.like(await publish(), { status: 409, body: { error: { reason: 'payment_account_not_connected' } } });
  const stored = (await formloom.storage.users.findById(user.id))!;
  const { token } = await formloom.service(SessionIssuer).open(formloom.storage, stored, { user_agent: 'test', ip_address: null });
  const { page, errors, close } = await openPage(browser, { cookie: { name: 'formloom_session', value: token, url } });
  // Stripe's onboarding pages are outside this server: a stand-in that the owner finishes.
  await page.route('https://connect.stripe.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Stripe</title><main><h1>Stripe onboarding</h1></main>' }));
  try {
    await page.goto(`${url}/forms/${created.id}`);
    const connect = page.getByRole('button', { name: 'Connect your Stripe account' });
    await connect.waitFor();
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'connect-account');
    await connect.click();
    await page.waitForURL(/^https:\/\/connect\.stripe\.com\/setup\//);
    const account = (await formloom.storage.payments.accountOf(user.id))!;
    fake.enableAccount(account.account_id);
    await page.goto(`${url}/forms/${created.id}`);
    await page.getByText('Your Stripe account is connected and ready to take payments.').waitFor();
    t.like(await publish(), { status: 200 });
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
