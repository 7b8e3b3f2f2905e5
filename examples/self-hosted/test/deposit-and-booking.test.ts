import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { FakeStripe, STRIPE_JS_STAND_IN } from '@formloom/payments-stripe/testing';
import { axeViolations, eventually, launchBrowser, mailedLink, startApp, type WorkspaceApp } from './helpers/workspace-browser';

/*
 * One form that books a slot and takes a deposit, end to end in a real browser, in the self-hosted app (docs/booking.md,
 * docs/payments.md): FORMLOOM_STRIPE_* pointed at FakeStripe (a local server speaking Stripe's API), the owner's
 * calendar a real Radicale. Only the network boundary is stubbed in the browser: https://js.stripe.com serves a
 * stand-in of the Stripe.js calls the page makes, whose confirmation at https://api.stripe.com pays the PaymentIntent
 * at FakeStripe. The respondent picks a time (held), pays the deposit the server computed, and the response completes
 * with both: the booking confirmed and written to the calendar, the invitation mailed, the payment succeeded.
 * DEPOSIT_SHOTS=<dir> keeps screenshots at 390 px and 1280 px.
 */
let fake: FakeStripe;
let radicale: Radicale;
let w: WorkspaceApp;
let browser: Browser;
test.before(async () => {
  [fake, radicale, browser] = await Promise.all([FakeStripe.start(), Radicale.start({ owner: 'pw' }), launchBrowser()]);
  w = await startApp({
    FORMLOOM_STRIPE_SECRET_KEY: fake.secretKey,
    FORMLOOM_STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    FORMLOOM_STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    FORMLOOM_STRIPE_API_URL: fake.apiUrl,
  });
});
test.after.always(async () => {
  await browser?.close();
  await w?.close();
  await Promise.all([fake?.close(), radicale?.close()]);
});

async function shot(page: Page, name: string) {
  const dir = process.env.DEPOSIT_SHOTS;
  if (!dir) return;
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: size.height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

test('a respondent books a fitting and pays its deposit on one form: booked, in the calendar, mailed, paid', async (t) => {
  t.timeout(180_000);
  const formloom = w.app.formloom;
  const owner = await formloom.accounts.createUser({ email: 'studio@example.com', plan: 'pro', verified: true, first_name: 'Sam' });
  const { api_key: key } = await formloom.accounts.createKey(owner.id);
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${w.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  t.is((await api('PUT', '/calendar/connection', { url: radicale.url, username: 'owner', password: 'pw' })).status, 200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '09:00', end: '18:00' }));
  const created = await api('POST', '/forms', {
    title: 'Dress fitting',
    published: true,
    questions: [
      { type: 'email', title: 'Your email', required: true },
      { type: 'booking', title: 'Pick a time for your fitting', required: true, properties: { hours, timezone: 'Europe/London', durations: [45] } },
      { type: 'payment', title: 'Deposit', description: 'Taken off the price of the dress', properties: { amount: 25, currency: 'GBP', description: 'Fitting deposit' } },
    ],
  });
  t.true(created.body.published, JSON.stringify(created.body.publish_error ?? null));
  const [, bookingQ, depositQ] = created.body.questions.map((q: { id: string }) => q.id);

  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: 'Europe/Paris', locale: 'en-GB' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  let stripeLoads = 0;
  await page.route('https://js.stripe.com/**', (route) => {
    stripeLoads++;
    return route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS_STAND_IN });
  });
  await page.route('https://api.stripe.com/**', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(fake.succeed(new URL(route.request().url()).pathname.split('/')[3]!)) }));
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${w.url}/f/${created.body.slug}`);
    const form = page.locator('formloom-form');
    await form.getByRole('textbox', { name: /Your email/ }).fill('ann@example.com');
    await form.getByRole('button', { name: 'OK' }).click();

    // The slot picker: times in the respondent's zone (Paris, an hour ahead of the owner's London hours).
    await form.getByRole('heading', { name: 'Pick a time for your fitting' }).waitFor();
    const times = form.locator('.fl-booking-time input');
    await times.first().waitFor();
    t.is(stripeLoads, 0, 'Stripe.js is not loaded before the payment step');
    await form.locator('.fl-booking-time').nth(2).click();
    t.true(await times.nth(2).isChecked());
    await form.locator('.fl-booking-status').filter({ hasText: /held/i }).waitFor();
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'deposit-booking-slot');
    await form.getByRole('button', { name: 'OK' }).click();

    // The deposit: the amount the server set, paid with the (stand-in) Payment Element.
    await form.getByText('Amount to pay: £25.00').waitFor();
    t.is(stripeLoads, 1);
    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'deposit-booking-payment');
    await form.getByRole('button', { name: 'Pay £25.00' }).click();
    await form.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await shot(page, 'deposit-booking-done');
    t.deepEqual(errors, []);
  } finally {
    await context.close();
  }

  // The response: completed with its booking (confirmed) and its payment (succeeded).
  const list = await eventually('the completed response', async () => {
    const r = await api('GET', `/forms/${created.body.id}/responses`);
    return r.body.total === 1 && r.body.responses[0].completed_at && r.body.responses[0];
  });
  t.like(list.payments, [{ question_id: depositQ, amount: 2500, currency: 'gbp', status: 'succeeded' }]);
  t.like(list.bookings, [{ question_id: bookingQ, status: 'confirmed' }]);
  const booked = list.answers.find((a: { question_id: string }) => a.question_id === bookingQ).value;
  t.is(booked.timezone, 'Europe/Paris', "the respondent's zone");
  t.is(Date.parse(booked.end) - Date.parse(booked.start), 45 * 60_000);
  const pi = [...fake.paymentIntents.values()].find((p) => p.metadata.response_id === list.id)!;
  t.is(pi.amount, 2500);
  t.is(pi.status, 'succeeded');
  // Written into the owner's calendar, and the invitation mailed with its links.
  await eventually('the event in the calendar', () => radicale.getRaw('owner', booked.id), 60_000);
  t.regex(await mailedLink(w, 'ann@example.com', `/bookings/${booked.id}`), /action=(cancel|reschedule)/);
  // One export row carries both.
  const csv = await fetch(`${w.url}/api/v1/forms/${created.body.id}/responses/export`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.text());
  const [header, row] = csv.split('\r\n');
  t.true(header!.endsWith(',Deposit - payment amount,Deposit - payment currency,Deposit - payment status,Deposit - payment id'));
  t.true(row!.includes(booked.start) && row!.endsWith(`,25.00,GBP,succeeded,${pi.id}`), row);
});
