import test from '../helpers/page-test';
import type { Browser } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { caldavPlugin } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser, openPage } from '../helpers/browser';
import { memoryMailer } from '../helpers/signing';

/*
 * A booking on the respondent's page, end to end (docs/booking.md, "On the page"): at 390 px, by keyboard, the
 * times in the respondent's zone and language, axe 0; the slot held, the response completed, the event in the
 * owner's (Radicale) calendar.
 */
let browser: Browser;
let radicale: Radicale;
let app: TestApp;
test.before(async () => {
  [browser, radicale] = await Promise.all([launchBrowser(), Radicale.start({ owner: 'pw' })]);
  app = await startTestApp('sqlite', { plugins: [caldavPlugin()], mailer: memoryMailer() });
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
  await radicale?.close();
});

test('a respondent books a slot by keyboard at 390 px; it is held, booked with the response and written to the calendar', async (t) => {
  t.timeout(120_000);
  app.formloom.worker.start({ pollMs: 50 });
  const u = await app.user('pro');
  t.is((await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: radicale.url, username: 'owner', password: 'pw' } })).status, 200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '09:00', end: '17:00' }));
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: { title: 'Intro', published: true, language: 'fr', questions: [{ type: 'email', title: 'E-mail', required: true }, { type: 'booking', title: 'Quand ?', required: true, properties: { hours, timezone: 'Europe/Paris', durations: [30, 60] } }] },
  });
  t.true(created.body.published);
  const { page, errors, close } = await openPage(browser, { width: 390 });
  // The slot picker's code is the on-demand module, preloaded by the page (docs/respondents.md "Speed").
  const onDemand: string[] = [];
  page.on('request', (r) => r.url().includes('/formloom/assets/formloom-form-on-demand.') && onDemand.push(r.url()));
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const html = await (await page.goto(`${app.url}/f/${created.body.slug}`))!.text();
    t.regex(html, /<link rel="modulepreload" href="\/formloom\/assets\/formloom-form-on-demand\.\w+\.js">/);
    const form = page.locator('formloom-form');
    await form.getByRole('heading', { name: 'E-mail' }).waitFor();
    await page.keyboard.type('ann@example.com');
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'Quand ?' }).waitFor();
    await form.locator('.fl-booking-time').first().waitFor();
    t.regex(await form.locator('.fl-booking-note').last().textContent() ?? '', /fuseau horaire/, 'in the page\'s language');
    const first = form.locator('.fl-booking-time input').first();
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await form.locator('.fl-booking-status', { hasText: 'Réservé pour vous' }).waitFor();
    t.is(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), 390, 'no sideways scroll at 390 px');
    // The scrolling day list never ends across a day's heading (docs/booking.md, "On the page"): whatever its
    // height (a sheet put in here, list heights from 14 to 34rem) and width, the fit moves its edge off a heading.
    const fitted = (height: string) => form.locator('.fl-booking-days').evaluate((days: any, h: string) => {
      const root = days.getRootNode();
      // A constructed sheet: the page's CSP refuses a <style> without its nonce.
      const g = globalThis as any;
      if (!g.fitSheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, (g.fitSheet = new g.CSSStyleSheet())];
      g.fitSheet.replaceSync(`.fl-booking-days { max-height: ${h} }`);
      const edge = days.getBoundingClientRect().top + days.clientHeight;
      const cut = [...days.querySelectorAll('legend')].filter((l: any) => l.getBoundingClientRect().top < edge && l.getBoundingClientRect().bottom > edge);
      return { scrolls: days.scrollHeight > days.clientHeight, cut: cut.length };
    }, height);
    for (let i = 0; i <= 20; i++) {
      const height = `${14 + i}rem`;
      await fitted(height);
      // A change of width makes the list fit itself again (as a phone turned around would).
      await page.setViewportSize({ width: i % 2 ? 389 : 390, height: 844 });
      await waitFor(async () => (await fitted(height)).cut === 0, { what: `no day heading cut with a list of ${height}`, timeoutMs: 10_000 });
    }
    await page.setViewportSize({ width: 1280, height: 844 });
    await waitFor(async () => (await fitted('28rem')).cut === 0, { what: 'no day heading cut at 1280 px' });
    await page.setViewportSize({ width: 390, height: 844 });
    await waitFor(async () => (await fitted('28rem')).cut === 0, { what: 'no day heading cut at 390 px' });
    t.deepEqual(await axeViolations(page), []);
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { level: 1 }).filter({ hasNot: page.getByText('Quand ?') }).first().waitFor();
    const list = await waitFor(async () => {
      const r = await app.api('GET', `/forms/${created.body.id}/responses`, { key: u.key });
      return r.body.total === 1 && r.body.responses[0].completed_at && r.body.responses[0];
    }, { what: 'the response' });
    const booked = list.answers.find((a: { question_id: string }) => a.question_id === created.body.questions[1].id).value;
    t.truthy(booked.id);
    await waitFor(() => radicale.getRaw('owner', booked.id), { what: 'the event in the calendar' });
    t.is(onDemand.length, 1, 'fetched once, by its preload');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
