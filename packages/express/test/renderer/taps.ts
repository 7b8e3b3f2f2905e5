import test from '../helpers/page-test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually, launchBrowser, webhookReceiver } from '../helpers/browser';

/*
 * What a tap does on the respondent's page (issue 34, items 9, 11, 12; docs/respondents.md "Moving on"):
 * the page never submits on its own (a form without questions waits for its button); every single-tap
 * question moves on after a tap the same way, and a move-on never lands on the screen after; a tap on OK
 * while the dropdown's list is open moves on at once.
 *
 * The page's timers run on Playwright's fake clock, paused, where a test is about them: the move-on is waited
 * for by advancing that clock, never by sleeping. One browser and one server for the file, two tests at a time
 * (helpers/page-test.ts).
 */
let browser: Browser;
let app: TestApp;
let key: string;
test.before(async () => {
  browser = await launchBrowser();
  app = await startTestApp('sqlite', { allowPrivateWebhooks: true });
  app.formloom.worker.start({ pollMs: 50 });
  key = (await app.user('pro')).key;
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function open(opts: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ...opts });
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
const responses = async (id: string) => (await app.api('GET', `/forms/${id}/responses`, { key })).body;
/** Clicks the label of the radio button named `name`, as a respondent does (the input itself is visually hidden). */
async function tap(page: Page, name: string) {
  const id = await form(page).getByRole('radio', { name, exact: true }).getAttribute('id');
  await form(page).locator(`label[for="${id}"]`).click();
}

test('a form without questions stores a response only when its button is pressed', async (t) => {
  t.timeout(240_000);
  const hook = await webhookReceiver();
  const f = await publish({ title: 'Just say hi', description: 'Press the button to say hi.', questions: [], webhook_url: hook.url });
  const { page, errors, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    const submit = form(page).getByRole('button', { name: 'Submit' });
    await submit.waitFor();
    t.true(await heading(page, 'Just say hi').isVisible());
    t.is(await form(page).locator('.fl-desc').innerText(), 'Press the button to say hi.');
    // A second view, as a crawler or a reload would make: still nothing stored.
    await page.reload();
    await submit.waitFor();
    t.is((await responses(f.id)).total, 0, 'viewing the page stores nothing');
    await submit.click();
    await heading(page, 'Thank you!').waitFor();
    const list = await responses(f.id);
    t.is(list.total, 1);
    t.truthy(list.responses[0].completed_at);
    t.deepEqual(list.responses[0].answers, []);
    t.true(await eventually(() => hook.bodies.length > 0), 'the webhook fires for the pressed button');
    t.is(hook.bodies.length, 1, 'and only for it');
    t.deepEqual(errors, []);
  } finally {
    await close();
    await hook.close();
  }
});

test('rating and opinion scale move on after a tap as choices and yes/no do; a quick OK never skips the next question', async (t) => {
  t.timeout(240_000);
  const f = await publish({
    title: 'Taps',
    questions: [
      { type: 'rating', title: 'Stars', properties: { steps: 5 } },
      { type: 'opinion_scale', title: 'Scale', properties: { min: 0, max: 10 } },
      { type: 'yes_no', title: 'Coffee?' },
      { type: 'short_text', title: 'Name' },
      { type: 'short_text', title: 'City' },
    ],
  });
  const { page, errors, close } = await open();
  try {
    await page.clock.install();
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Stars').waitFor();
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 1000);
    await tap(page, '3 of 5');
    t.true(await form(page).getByRole('radio', { name: '3 of 5' }).isChecked(), 'the tapped star shows as picked first');
    await page.clock.runFor(1000);
    await heading(page, 'Scale').waitFor();
    // Arrow keys only move the selection.
    await page.keyboard.press('ArrowRight');
    t.true(await form(page).getByRole('radio', { name: '1', exact: true }).isChecked());
    await page.clock.runFor(1000);
    t.true(await heading(page, 'Scale').isVisible(), 'an arrow key does not move on');
    await tap(page, '7');
    await page.clock.runFor(1000);
    await heading(page, 'Coffee?').waitFor();
    // A tap, then OK before the page moved on: OK moves on, and the tap's move-on does not act on "Name".
    await tap(page, 'Yes');
    await form(page).getByRole('button', { name: 'OK' }).click();
    await heading(page, 'Name').waitFor();
    await page.clock.runFor(2000);
    t.true(await heading(page, 'Name').isVisible(), 'still on the question after the tapped one');
    t.is(await heading(page, 'City').count(), 0);
    await form(page).getByRole('textbox').fill('Ada');
    await page.keyboard.press('Enter');
    await heading(page, 'City').waitFor();
    await form(page).getByRole('textbox').fill('Paris');
    await page.keyboard.press('Enter');
    await heading(page, 'Thank you!').waitFor();
    const list = await responses(f.id);
    t.deepEqual(list.responses[0].answers.map((a: any) => a.value), [3, 7, true, 'Ada', 'Paris']);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('on a touch screen, one tap on OK moves on while the dropdown list is open', async (t) => {
  t.timeout(240_000);
  const f = await publish({
    title: 'Where',
    questions: [
      { type: 'dropdown', title: 'Country', properties: { choices: ['Austria', 'France', 'Germany', 'Spain'].map((label) => ({ label })) } },
      { type: 'short_text', title: 'Why' },
    ],
  });
  const { page, errors, close } = await open({ hasTouch: true, isMobile: true });
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Country').waitFor();
    const box = form(page).getByRole('combobox', { name: 'Country' });
    await box.focus();
    await page.keyboard.type('Germany');
    t.is(await box.getAttribute('aria-expanded'), 'true', 'the list is open under the field');
    t.deepEqual(await form(page).getByRole('option').allInnerTexts(), ['Germany']);
    // A finger on the OK button where it is now, as a respondent taps it.
    const ok = (await form(page).getByRole('button', { name: 'OK' }).boundingBox())!;
    await page.touchscreen.tap(ok.x + ok.width / 2, ok.y + ok.height / 2);
    await heading(page, 'Why').waitFor();
    await form(page).getByRole('textbox').fill('Family');
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await heading(page, 'Thank you!').waitFor();
    t.deepEqual((await responses(f.id)).responses[0].answers.map((a: any) => a.value), ['Germany', 'Family']);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
