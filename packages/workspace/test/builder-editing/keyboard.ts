import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, tabTo } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The workspace on a phone (390 px) and by the keyboard alone (docs/workspace.md, "Keyboard"), and two tabs
 * editing one form: the second save is refused (If-Match) and asked as a conflict, never a silent overwrite.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const focusedText = (page: Page) =>
  page.evaluate(() => {
    let a: any = (globalThis as any).document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return (a?.getAttribute('aria-label') || a?.textContent || '').trim().replace(/\s+/g, ' ');
  });

async function fitsWidth(page: Page) {
  return page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth);
}

test('at 390 px with the keyboard only: create a form, add and reorder questions, publish', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'No forms yet' }).waitFor();
    t.true(await fitsWidth(page), 'the forms list fits 390 px');
    t.deepEqual(await axeViolations(page), []);
    await tabTo(page, (el) => el.text === 'New form');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.text.startsWith('Blank form'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Add your first question' }).waitFor();
    t.true(await fitsWidth(page), 'the builder fits 390 px');

    // Two questions: the kind is picked with the arrow keys, the title typed where the focus lands.
    await tabTo(page, (el) => el.text === 'Add question');
    await page.keyboard.press('Enter');
    await page.getByLabel('Question 1', { exact: true }).waitFor();
    await page.keyboard.type('What is your name?');
    await tabTo(page, (el) => el.tag === 'select' && el.label.startsWith('New question'), { back: true, max: 200 });
    await page.keyboard.press('ArrowDown');
    await tabTo(page, (el) => el.text === 'Add question');
    await page.keyboard.press('Enter');
    await page.getByLabel('Question 2', { exact: true }).waitFor();
    await page.keyboard.type('Tell us more');
    t.true(await fitsWidth(page));
    t.deepEqual(await axeViolations(page), []);

    // Question 2 moves up with its button, then back down with Alt+ArrowDown; the focus follows it.
    await tabTo(page, (el) => el.label === 'Move question 2 up', { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: '“Tell us more” moved to position 1 of 2.' }).waitFor();
    t.regex(await focusedText(page), /Tell us more/);
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByRole('status').filter({ hasText: '“Tell us more” moved to position 2 of 2.' }).waitFor();
    await tabTo(page, (el) => el.label === 'Move question 2 up', { max: 20 });
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

    await tabTo(page, (el) => el.text === 'Publish', { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.text === 'Publish' && el.tag === 'button');
    await page.keyboard.press('Enter');
    await page.getByText('Version 1 is live.').waitFor();
    t.true(await fitsWidth(page), 'the publish tab fits 390 px');
    t.deepEqual(await axeViolations(page), []);

    const list = await app.api('GET', '/forms', { key: owner.key });
    const form = await app.api('GET', `/forms/${list.body.forms[0].id}`, { key: owner.key });
    t.true(form.body.published);
    t.deepEqual(form.body.questions.map((q: any) => [q.type, q.title]), [['long_text', 'Tell us more'], ['short_text', 'What is your name?']]);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('two tabs editing one form: the later save is asked as a conflict, never an overwrite', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Shared', questions: [{ type: 'short_text', title: 'Name' }] } })).body.id;
  const a = await openPage(browser, { cookie: owner.cookie });
  const b = await openPage(browser, { cookie: owner.cookie });
  try {
    for (const p of [a.page, b.page]) {
      await p.goto(`${app.url}/forms/${id}`);
      await p.getByRole('textbox', { name: 'Form title' }).waitFor();
    }
    await a.page.getByRole('textbox', { name: 'Form title' }).fill('Title from tab A');
    await a.page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    await b.page.getByRole('textbox', { name: 'Form title' }).fill('Title from tab B');
    // Both changed the title: tab B is asked (docs/workspace.md, "When the form changed elsewhere").
    const title = b.page.getByRole('region', { name: 'This form was also changed elsewhere' }).getByRole('group', { name: 'Form title' });
    await title.getByText('Theirs: “Title from tab A”').waitFor();
    await b.page.getByRole('status').filter({ hasText: 'Not saved: changed elsewhere' }).waitFor();
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, 'Title from tab A', 'tab B did not overwrite tab A');
    t.deepEqual(await axeViolations(b.page), []);
    await title.getByRole('radio', { name: /Take theirs/ }).check();
    await b.page.getByRole('button', { name: 'Save the merged form' }).click();
    await b.page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    t.is(await b.page.getByRole('textbox', { name: 'Form title' }).inputValue(), 'Title from tab A');
    // Tab B edits again from there.
    await b.page.getByRole('textbox', { name: 'Form title' }).fill('Title from tab B, after reloading');
    await b.page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, 'Title from tab B, after reloading');
    t.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await a.close();
    await b.close();
  }
});

test('questions reorder by dragging their handle', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const questions = ['First', 'Second', 'Third'].map((title) => ({ type: 'short_text', title }));
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Drag', questions } })).body.id;
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    const items = page.locator('fl-question-list li');
    await items.nth(2).waitFor();
    await items.nth(2).locator('.handle').dragTo(items.nth(0), { targetPosition: { x: 20, y: 5 } });
    await page.getByRole('status').filter({ hasText: '“Third” moved to position 1 of 3.' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    const form = await app.api('GET', `/forms/${id}`, { key: owner.key });
    t.deepEqual(form.body.questions.map((q: any) => q.title), ['Third', 'First', 'Second']);
    t.deepEqual(await items.locator('.title').allTextContents(), ['Third', 'First', 'Second'], 'the list shows the saved order');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a save that cannot reach the server says so, and is tried again by itself once it can', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Offline', questions: [{ type: 'short_text', title: 'Name' }] } })).body.id;
  const { page, context, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    // The page's timers on a clock the test moves (time still flows by itself): the retry's delay is passed by
    // moving it, not by waiting up to 15 s for it.
    await page.clock.install();
    await page.goto(`${app.url}/forms/${id}`);
    const title = page.getByRole('textbox', { name: 'Form title' });
    await title.waitFor();
    await context.setOffline(true);
    await title.fill('Typed while offline');
    await page.getByRole('status').filter({ hasText: 'Not saved' }).waitFor();
    await page.getByText('The server could not be reached.').first().waitFor();
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, 'Offline');
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await context.setOffline(false);
    // Past the longest retry delay (builder/store.ts, 15 s): the retry pending then goes by itself.
    await page.clock.fastForward(15_000);
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, 'Typed while offline');
    t.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)), []);
  } finally {
    await close();
  }
});

test('a save refused while the owner kept editing is followed by the newer draft, which is saved', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Busy', questions: [{ type: 'short_text', title: 'Name' }] } })).body.id;
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    // The first save is held until the owner has typed again, then refused (as the server refuses a
    // draft caught half-edited); every later save goes through.
    let first = true;
    let seen!: () => void;
    const firstSaveSent = new Promise<void>((resolve) => (seen = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/v1/forms/${id}`, async (route) => {
      if (route.request().method() !== 'PUT' || !first) return route.continue();
      first = false;
      seen();
      await released;
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: 'title: refused for the test', status: 400 } }) });
    });
    // The page's timers on a clock the test moves (time still flows by itself): the autosave delay is passed
    // by moving it, not by waiting.
    await page.clock.install();
    await page.goto(`${app.url}/forms/${id}`);
    const title = page.getByRole('textbox', { name: 'Form title' });
    await title.fill('Half typed');
    await firstSaveSent;
    await title.fill('Typed in full');
    // Past the autosave delay: the newer draft's save is already waiting on the first when it is refused.
    await page.clock.runFor(1500);
    release();
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, 'Typed in full');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('moving a jump target before its question asks for another target before saving', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const created = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Jumps', questions: [{ type: 'yes_no', title: 'Skip?' }, { type: 'short_text', title: 'Middle' }, { type: 'short_text', title: 'Target' }] } })).body;
  const [q1, , q3] = created.questions;
  t.is((await app.api('PUT', `/forms/${created.id}`, { key: owner.key, body: { questions: [{ ...q1, logic_jumps: [{ conditions: [{ op: 'equals', value: true }], to: q3.id }] }, created.questions[1], q3] } })).status, 200);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.id}`);
    // Each move changes what the jump does: the builder warns, and the owner keeps the target.
    await page.getByRole('button', { name: 'Move question 3 up' }).click();
    await page.getByRole('dialog', { name: 'This move changes where jumps go' }).getByText('The jump from Q1 “Skip?” to Q3 “Target” would no longer skip Q2 “Middle”.').waitFor();
    await page.getByRole('button', { name: 'Move and keep the targets' }).click();
    await page.getByRole('button', { name: 'Move question 2 up' }).click();
    await page.getByRole('dialog').getByText('The jump from Q1 “Skip?” to Q2 “Target” would point backwards', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Move and keep the targets' }).click();
    await page.getByRole('button', { name: /Skip\?/ }).click();
    await page.getByRole('alert').filter({ hasText: 'no longer after this one' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Not saved' }).waitFor();
    await page.getByRole('combobox', { name: 'Jump 1: then' }).selectOption({ label: 'Show the thank-you screen (submit)' });
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    const form = (await app.api('GET', `/forms/${created.id}`, { key: owner.key })).body;
    t.deepEqual(form.questions.map((q: any) => q.title), ['Target', 'Skip?', 'Middle']);
    t.deepEqual(form.questions[1].logic_jumps, [{ conditions: [{ op: 'equals', value: true }], to: 'end' }]);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
