import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { caldavPlugin } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { stripePayments, stripePlugin } from '@formloom/payments-stripe';
import { FakeStripe, STRIPE_JS_STAND_IN } from '@formloom/payments-stripe/testing';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, hostSite, launchBrowser, openPage } from '../helpers/browser';
import { memoryMailer } from '../helpers/signing';

/*
 * A form that books a slot and takes a deposit, in `<formloom-form>` on a host's own page on another origin
 * (docs/payments.md, "A deposit and a booking in one form"; docs/embedding.md): the slot held, the Payment Element
 * mounted in the host page's light DOM (Stripe.js refuses shadow roots), paid, the response completed with the
 * booking confirmed and written to the owner's (Radicale) calendar. Stripe is stubbed only at the network boundary:
 * https://js.stripe.com serves a stand-in of the Stripe.js calls, whose confirmation pays at FakeStripe.
 */
let browser: Browser;
let fake: FakeStripe;
let radicale: Radicale;
let app: TestApp;
let host: Awaited<ReturnType<typeof hostSite>>;
const mailer = memoryMailer();
test.before(async () => {
  [browser, fake, radicale, host] = await Promise.all([launchBrowser(), FakeStripe.start(), Radicale.start({ owner: 'pw' }), hostSite()]);
  app = await startTestApp('sqlite', {
    embedOrigins: [host.url],
    mailer,
    plugins: [
      caldavPlugin(),
      { ...stripePlugin({ secretKey: 'sk_x', webhookSecret: 'whsec_x', publishableKey: 'pk_x' }), adapters: { payments: (ctx: any) => stripePayments({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, publishableKey: fake.publishableKey, apiUrl: fake.apiUrl, maxNetworkRetries: 0 })(ctx) } },
    ],
  });
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
  await Promise.all([fake?.close(), radicale?.close(), host?.close()]);
});

test("a host's page embeds a form that books a slot and takes a deposit: held, paid in the light DOM, booked with the response", async (t) => {
  t.timeout(120_000);
  app.formloom.worker.start({ pollMs: 50 });
  const u = await app.user('pro');
  t.is((await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: radicale.url, username: 'owner', password: 'pw' } })).status, 200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '08:00', end: '20:00' }));
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Bike service',
      published: true,
      questions: [
        { type: 'email', title: 'Your email', required: true },
        { type: 'booking', title: 'Drop-off time', required: true, properties: { hours, timezone: 'Europe/Berlin', durations: [30] } },
        { type: 'payment', title: 'Deposit', properties: { amount: 15, currency: 'EUR' } },
      ],
    },
  });
  t.true(created.body.published, JSON.stringify(created.body.publish_error ?? null));
  const [, bookingQ] = created.body.questions.map((q: { id: string }) => q.id);
  host.html = `<!doctype html><html lang="en"><head><title>Bike shop</title><script type="module" src="${app.url}/embed.js"></script></head>
<body><main><h1>Bike shop</h1><formloom-form slug="${created.body.slug}" base-url="${app.url}"></formloom-form></main></body></html>`;

  const { page, errors, close } = await openPage(browser, { width: 390 });
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS_STAND_IN }));
  await page.route('https://api.stripe.com/**', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(fake.succeed(new URL(route.request().url()).pathname.split('/')[3]!)) }));
  try {
    await page.goto(host.url);
    const form = page.locator('formloom-form');
    await form.getByRole('textbox', { name: /Your email/ }).fill('rider@example.com');
    await form.getByRole('button', { name: 'OK' }).click();
    await form.locator('.fl-booking-time').first().waitFor();
    await form.locator('.fl-booking-time').nth(1).click();
    await form.locator('.fl-booking-status').filter({ hasText: /Held for you/ }).waitFor();
    await form.getByRole('button', { name: 'OK' }).click();
    await form.getByText('Amount to pay: €15.00').waitFor();
    t.true(await page.evaluate(() => !!(globalThis as any).document.querySelector('formloom-form > [data-fl-payment-element] input')), "the element is in the host page's light DOM");
    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    t.deepEqual(await axeViolations(page), []);
    await form.getByRole('button', { name: 'Pay €15.00' }).click();
    await form.getByRole('heading', { name: 'Thank you!' }).waitFor();
    t.deepEqual(errors, []);
  } catch (e) {
    t.log(errors, await page.locator('formloom-form').innerText().catch(() => ''));
    throw e;
  } finally {
    await close();
  }
  const r = await waitFor(async () => {
    const list = await app.api('GET', `/forms/${created.body.id}/responses`, { key: u.key });
    return list.body.total === 1 && list.body.responses[0].completed_at && list.body.responses[0];
  }, { what: 'the completed response' });
  t.like(r.payments, [{ amount: 1500, currency: 'eur', status: 'succeeded' }]);
  t.like(r.bookings, [{ question_id: bookingQ, status: 'confirmed' }]);
  const booked = r.answers.find((a: { question_id: string }) => a.question_id === bookingQ).value;
  await waitFor(() => radicale.getRaw('owner', booked.id), { what: 'the event in the calendar' });
  await waitFor(() => mailer.sent.find((m) => m.to === 'rider@example.com' && m.calendar?.content.includes(booked.id)), { what: 'the invitation' });
});
