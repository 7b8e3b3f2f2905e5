import test from '../helpers/page-test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchBrowser } from '../helpers/browser';

/*
 * The respondent's page on a phone and in other languages (issue 34, items 10 and 13; docs/respondents.md):
 * a right-to-left form with the honeypot fits a 390 px screen; the drop zone does not offer dragging on a
 * touch screen; the focus stays on the upload control through an upload; the sentences of the page without
 * JavaScript and "Powered by" speak the form's language. One browser and one server for the file, one test
 * at a time.
 */
let browser: Browser;
let app: TestApp;
let key: string;
test.before(async () => {
  browser = await launchBrowser();
  app = await startTestApp('sqlite');
  key = (await app.user()).key;
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

async function open(opts: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, ...opts });
  // A busy machine: give navigation and waits room (nothing here is timed).
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && errors.push(m.text()));
  return { page, errors, close: () => context.close() };
}

async function publish(body: Record<string, unknown>) {
  const res = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string };
}

const form = (page: Page) => page.locator('formloom-form');
const heading = (page: Page, name: string) => form(page).getByRole('heading', { name, exact: true });
const pageWidth = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);

test('a right-to-left form with the honeypot fits a 390 px screen, and its honeypot is still there for bots', async (t) => {
  t.timeout(240_000);
  for (const language of ['ar', 'he', 'en']) {
    const f = await publish({ title: `Trap ${language}`, language, spam_protection: { honeypot: true }, questions: [{ type: 'short_text', title: 'Name' }] });
    const { page, errors, close } = await open(PHONE);
    try {
      await page.goto(`${app.url}/f/${f.slug}`);
      await heading(page, 'Name').waitFor();
      t.true((await pageWidth(page)) <= 390, `${language}: the page is ${await pageWidth(page)} px wide`);
      const trap = form(page).locator('input[name="website"]');
      t.is(await trap.count(), 1, 'the honeypot field is in the page');
      t.is(await trap.getAttribute('tabindex'), '-1', 'out of the tab order');
      t.is(await form(page).locator('.fl-trap').getAttribute('aria-hidden'), 'true', 'hidden from screen readers');
      const box = await form(page).locator('.fl-trap').evaluate((el: any) => {
        const r = el.getBoundingClientRect();
        return { width: r.width, height: r.height };
      });
      t.true(box.width <= 1 && box.height <= 1, 'it takes no room');
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('the drop zone offers dragging only where there is a mouse; the focus stays on the upload control', async (t) => {
  t.timeout(240_000);
  const f = await publish({ title: 'Files', questions: [{ type: 'file_upload', title: 'Your file' }, { type: 'short_text', title: 'Note' }] });
  const phone = await open(PHONE);
  try {
    await phone.page.goto(`${app.url}/f/${f.slug}`);
    await heading(phone.page, 'Your file').waitFor();
    t.true(await form(phone.page).getByText('Choose a file').isVisible());
    t.false(await form(phone.page).getByText('or drag it here').isVisible(), 'no dragging on a touch screen');
    t.true((await pageWidth(phone.page)) <= 390);
  } finally {
    await phone.close();
  }
  const { page, errors, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Your file').waitFor();
    t.true(await form(page).getByText('or drag it here').isVisible(), 'a mouse can drag');
    const file = form(page).locator('input[type=file]');
    await file.focus();
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my notes') });
    await form(page).getByRole('status').filter({ hasText: 'notes.txt: uploaded' }).waitFor({ state: 'attached' });
    const focused = () => form(page).evaluate((el: any) => (el.shadowRoot.activeElement?.textContent as string | undefined) ?? null);
    t.is(await focused(), 'Remove', 'the focus is on the uploaded file, not back at the top of the page');
    // From there the keyboard goes on through the question: Remove, then OK.
    await page.keyboard.press('Tab');
    t.is(await focused(), 'OK');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('without JavaScript the page speaks the form language, and so does "Powered by"', async (t) => {
  t.timeout(240_000);
  const fr = await publish({ title: 'Sondage', language: 'fr', questions: [{ type: 'short_text', title: 'Nom' }] });
  const de = await publish({ title: 'Umfrage', language: 'de', close_at: '2020-01-01T00:00:00Z', questions: [{ type: 'short_text', title: 'Name' }] });
  const own = await publish({ title: 'Eigen', language: 'de', strings: { needs_javascript: 'Bitte JavaScript einschalten.' }, questions: [{ type: 'short_text', title: 'Name' }] });
  const en = await publish({ title: 'Survey', questions: [{ type: 'short_text', title: 'Name' }] });
  const noScript = await open({ javaScriptEnabled: false });
  try {
    await noScript.page.goto(`${app.url}/f/${fr.slug}`);
    t.true(await noScript.page.getByText('Ce formulaire nécessite JavaScript.').isVisible());
    t.is(await noScript.page.getByText('This form needs JavaScript.').count(), 0);
    await noScript.page.goto(`${app.url}/f/${de.slug}`);
    t.true(await noScript.page.getByText('Dieses Formular ist geschlossen. Es nimmt keine Antworten mehr an.').isVisible());
    await noScript.page.goto(`${app.url}/f/${own.slug}`);
    t.true(await noScript.page.getByText('Bitte JavaScript einschalten.').isVisible(), "the owner's own words first");
    await noScript.page.goto(`${app.url}/f/${en.slug}`);
    t.true(await noScript.page.getByText('This form needs JavaScript.').isVisible());
  } finally {
    await noScript.close();
  }
  const ja = await publish({ title: 'アンケート', language: 'ja', questions: [{ type: 'short_text', title: 'お名前' }] });
  const { page, errors, close } = await open();
  try {
    await page.goto(`${app.url}/f/${ja.slug}`);
    await heading(page, 'お名前').waitFor();
    t.is(await form(page).locator('.fl-powered').innerText(), 'Formloom で作成');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
