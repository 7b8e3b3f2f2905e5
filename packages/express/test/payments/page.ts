import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { stripePayments, stripePlugin } from '@formloom/payments-stripe';
import { FakeStripe, STRIPE_JS_STAND_IN as FAKE_STRIPE_JS } from '@formloom/payments-stripe/testing';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser, openPage, shotsAtBothWidths } from '../helpers/browser';

/*
 * Paying on the respondent's page (docs/payments.md): the server computes the amount, the page loads Stripe.js only
 * at the payment step and confirms with the Payment Element, and the response completes once paid. Only the network
 * boundary is stubbed: https://js.stripe.com serves a small stand-in of the Stripe.js calls the page uses
 * (Stripe(), elements(), create('payment').mount(), confirmPayment()), whose confirm call to https://api.stripe.com
 * pays the PaymentIntent at FakeStripe, the local server the server's SDK talks to. PAYMENT_SHOTS=<dir> keeps
 * screenshots at 390 px and 1280 px.
 */

let fake: FakeStripe;
let app: TestApp;
let browser: Browser;
const stripeLoads: string[] = [];
test.before(async () => {
  fake = await FakeStripe.start();
  app = await startTestApp('sqlite', {
    plugins: [{ ...stripePlugin({ secretKey: 'sk_x', webhookSecret: 'whsec_x', publishableKey: 'pk_x' }), adapters: { payments: (ctx: any) => stripePayments({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 })(ctx) } }],
  });
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
  await fake?.close();
});

async function stubStripe(page: Page) {
  await page.route('https://js.stripe.com/**', (route) => {
    stripeLoads.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: FAKE_STRIPE_JS });
  });
  await page.route('https://api.stripe.com/**', (route) => {
    const id = new URL(route.request().url()).pathname.split('/')[3]!;
    return route.fulfill({ contentType: 'application/json', body: JSON.stringify(fake.succeed(id)) });
  });
}

const shot = (page: Page, name: string) => shotsAtBothWidths(page, 'PAYMENT_SHOTS', name);

const form = (page: Page) => page.locator('formloom-form');

test('a respondent pays the amount the server computed with the Payment Element; the response completes once paid', async (t) => {
  const u = await app.user();
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Workshop booking',
      published: true,
      variables: { total: 0 },
      questions: [
        { type: 'short_text', title: 'Your name', required: true },
        {
          type: 'multiple_choice', title: 'Which ticket?', properties: { choices: [{ label: 'Full day' }, { label: 'Half day' }] },
          logic_jumps: [
            { conditions: [{ op: 'equals', value: 'Full day' }], actions: [{ variable: 'total', op: 'set', value: 120 }] },
            { conditions: [{ op: 'equals', value: 'Half day' }], actions: [{ variable: 'total', op: 'set', value: 65 }] },
          ],
        },
        { type: 'payment', title: 'Your ticket', description: 'Paid securely with Stripe', properties: { amount_variable: 'total', currency: 'EUR' } },
      ],
    },
  });
  t.true(created.body.published, JSON.stringify(created.body.publish_error ?? null));
  const { page, errors, close } = await openPage(browser, { width: 390 });
  await stubStripe(page);
  try {
    const res = await page.goto(`${app.url}/f/${created.body.slug}`);
    const csp = res!.headers()['content-security-policy']!;
    t.regex(csp, /script-src 'self' https:\/\/js\.stripe\.com;/);
    t.regex(csp, /frame-src https:\/\/js\.stripe\.com https:\/\/hooks\.stripe\.com/);
    await form(page).getByRole('textbox', { name: /Your name/ }).fill('Ada');
    await form(page).getByRole('button', { name: 'OK' }).click();
    await form(page).getByText('Full day', { exact: true }).click();
    await form(page).getByText('Amount to pay: €120.00').waitFor();
    t.is(stripeLoads.length, 1, 'Stripe.js is loaded at the payment step');
    t.true(await page.evaluate(() => !!(globalThis as any).document.querySelector('formloom-form > [data-fl-payment-element] input')), 'the element is mounted in the light DOM, slotted in place');
    await form(page).getByLabel('Card number').fill('4242 4242 4242 4242');
    // Moving on without paying is refused.
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await form(page).getByText('Pay to continue').waitFor();
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'payment-step');
    await form(page).getByRole('button', { name: 'Pay €120.00' }).click();
    await form(page).getByRole('heading', { name: 'Thank you!' }).waitFor();
    await shot(page, 'payment-done');
    const list = await app.api('GET', `/forms/${created.body.id}/responses`, { key: u.key });
    t.is(list.body.total, 1);
    const r = list.body.responses[0];
    t.truthy(r.completed_at);
    const payments = await app.api('GET', `/forms/${created.body.id}/responses/${r.id}/payments`, { key: u.key });
    t.like(payments.body.payments, [{ amount: 12000, currency: 'eur', status: 'succeeded' }]);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }

  // The payment control is a module apart (docs/respondents.md "Speed"): when it cannot be fetched, the step
  // says so and offers a retry, which gets it once the connection is back.
  const offline = await openPage(browser, { width: 390 });
  await stubStripe(offline.page);
  let blocked = true;
  await offline.page.route('**/formloom/assets/formloom-form-on-demand.*', (route) => (blocked ? route.abort('internetdisconnected') : route.continue()));
  try {
    await offline.page.goto(`${app.url}/f/${created.body.slug}`);
    await form(offline.page).getByRole('textbox', { name: /Your name/ }).fill('Grace');
    await form(offline.page).getByRole('button', { name: 'OK' }).click();
    await form(offline.page).getByText('Half day', { exact: true }).click();
    await form(offline.page).getByRole('alert').filter({ hasText: 'The connection was lost.' }).waitFor();
    await shot(offline.page, 'payment-code-failed');
    blocked = false;
    await form(offline.page).getByRole('button', { name: 'Retry' }).click();
    await form(offline.page).getByText('Amount to pay: €65.00').waitFor();
  } finally {
    await offline.close();
  }

  // A form without a payment question neither loads Stripe.js nor allows it, nor fetches the payment's code.
  const plain = await app.api('POST', '/forms', { key: u.key, body: { title: 'Plain', published: true, questions: [{ type: 'short_text', title: 'Hi' }] } });
  const other = await openPage(browser);
  await stubStripe(other.page);
  const scripts: string[] = [];
  other.page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  try {
    const res = await other.page.goto(`${app.url}/f/${plain.body.slug}`);
    t.notRegex(res!.headers()['content-security-policy']!, /stripe/);
    await form(other.page).getByRole('textbox', { name: /Hi/ }).waitFor();
    t.is(stripeLoads.length, 2, 'loaded by the two pages that reached the payment step only');
    t.deepEqual(scripts.map((p) => p.replace(/\.\w+\.js$/, '')), ['/formloom/assets/formloom-form']);
  } finally {
    await other.close();
  }
});
