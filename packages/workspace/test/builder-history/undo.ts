import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, pauseClock } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Undo and redo in the builder (docs/workspace.md, "Undo and redo"): steps survive autosave and span the
 * form title, questions and the theme; keystrokes in one field are one step; a deleted question comes back
 * from the "Deleted · Undo" offer; at least 50 steps are kept.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
const serverForm = async (id: string, key: string) => (await app.api('GET', `/forms/${id}`, { key })).body;
/** Waits until the server holds what `check` wants (a save may still be on its way when the page says so). */
async function serverHas(id: string, key: string, check: (form: any) => boolean): Promise<any> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const form = await serverForm(id, key);
    if (check(form)) return form;
    if (Date.now() > deadline) throw new Error(`the server never got there: ${JSON.stringify({ title: form.title, questions: form.questions.map((q: any) => q.title) })}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Types `text` with the page's clock standing still: the keys are one typing step however long a busy machine
 * takes between them (a 1.5 s pause starts another, builder/history.ts); the clock runs on once they are in.
 */
async function typeAsOneStep(page: Page, text: string) {
  await pauseClock(page);
  await page.keyboard.type(text);
  await page.clock.resume();
}

test('undo and redo across autosave: the form title, a question title and a theme colour, by keys and buttons', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Feedback', questions: [{ type: 'short_text', title: 'Name' }] } })).body.id;
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.clock.install();
    await page.goto(`${app.url}/forms/${id}`);
    const title = page.getByRole('textbox', { name: 'Form title' });
    await title.waitFor();
    t.true(await page.getByRole('button', { name: 'Undo' }).isDisabled(), 'nothing to undo after opening');

    // Typed key by key: one step. Saved before the next edit.
    await title.selectText();
    await typeAsOneStep(page, 'Customer feedback');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.title === 'Customer feedback');
    const question = page.getByLabel('Question 1', { exact: true });
    await question.fill('Your name');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.questions[0].title === 'Your name');

    // Undo from outside any field (the focus on the question list): the question title, then the form's.
    await page.getByRole('button', { name: /Your name/ }).focus();
    await page.keyboard.press('Control+z');
    await page.getByRole('status').filter({ hasText: 'Undone: Change “Question 1”.' }).waitFor();
    t.is(await question.inputValue(), 'Name');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.questions[0].title === 'Name' && f.title === 'Customer feedback');
    await page.keyboard.press('Control+z');
    t.is(await title.inputValue(), 'Feedback', 'the keystrokes of the title were one step');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.title === 'Feedback');
    t.true(await page.getByRole('button', { name: 'Undo' }).isDisabled(), 'saves never entered the history');

    // Redo with Ctrl+Shift+Z and Ctrl+Y.
    await page.keyboard.press('Control+Shift+z');
    t.is(await title.inputValue(), 'Customer feedback');
    await page.keyboard.press('Control+y');
    t.is(await question.inputValue(), 'Your name');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.title === 'Customer feedback' && f.questions[0].title === 'Your name');

    // In a text field, Ctrl+Z takes back what was typed there since it got the focus.
    await question.focus();
    await page.keyboard.press('End');
    await typeAsOneStep(page, ', please');
    t.is(await question.inputValue(), 'Your name, please');
    await page.keyboard.press('Control+z');
    t.is(await question.inputValue(), 'Your name');

    // The theme: a colour changed on its tab is undone with the header's button, after its save.
    await page.getByRole('link', { name: 'Theme', exact: true }).click();
    const color = page.getByRole('textbox', { name: 'Buttons', exact: true });
    await color.fill('#123456');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.button_color === '#123456');
    await page.getByRole('button', { name: 'Undo' }).click();
    await saved(page);
    await serverHas(id, owner.key, (f) => f.button_color === null);
    t.is(await color.inputValue(), '');
    await page.getByRole('button', { name: 'Redo' }).click();
    t.is(await color.inputValue(), '#123456');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.button_color === '#123456');
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a deleted question is gone at once, and "Undo" in its notice brings it back in place after the save', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const questions = ['First', 'Second', 'Third'].map((title) => ({ type: 'short_text', title }));
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Delete', questions } })).body.id;
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    // The notice stays until used (its time is the next test's subject): nothing here races its 8 s.
    await page.locator('fl-toast').evaluate((el: any) => (el.duration = 600_000));
    await page.getByRole('button', { name: 'Delete question 2' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Question 2 deleted', has: page.getByRole('button', { name: 'Undo' }) });
    await notice.waitFor();
    // The pointer on the notice holds it (the toast's time stands still) while the save, the server and axe are
    // checked: on a busy machine they take longer than its 8 s.
    await notice.hover();
    t.deepEqual(await page.locator('fl-question-list li .title').allTextContents(), ['First', 'Third']);
    await saved(page);
    await serverHas(id, owner.key, (f) => f.questions.length === 2);
    const dir = process.env.FORMLOOM_SHOTS;
    if (dir) await page.screenshot({ path: `${dir}/workspace-undo-phone.png` });
    t.deepEqual(await axeViolations(page), []);
    await notice.getByRole('button', { name: 'Undo' }).click();
    await notice.waitFor({ state: 'hidden' });
    t.deepEqual(await page.locator('fl-question-list li .title').allTextContents(), ['First', 'Second', 'Third']);
    t.is(await page.getByLabel('Question 2', { exact: true }).inputValue(), 'Second', 'the question brought back is shown');
    await saved(page);
    const form = await serverHas(id, owner.key, (f) => f.questions.length === 3);
    t.deepEqual(form.questions.map((q: any) => q.title), ['First', 'Second', 'Third']);
    // Redo deletes it again.
    await page.getByRole('button', { name: 'Redo' }).click();
    await saved(page);
    await serverHas(id, owner.key, (f) => f.questions.length === 2);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the notice\'s time stands still while the pointer is on it or the focus in it, and runs again when they leave', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const questions = ['First', 'Second'].map((title) => ({ type: 'short_text', title }));
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Held', questions } })).body.id;
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    // The page's timers on a clock the test moves: "past its time" is a second of the page's clock, run through.
    await page.clock.install();
    await page.goto(`${app.url}/forms/${id}`);
    const toast = page.locator('fl-toast');
    await toast.evaluate((el: any) => (el.duration = 60_000));
    await page.getByRole('button', { name: 'Delete question 2' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Question 2 deleted', has: page.getByRole('button', { name: 'Undo' }) });
    await notice.waitFor();
    await notice.hover();
    // From now on a message lasts 200 ms, once nothing holds it.
    await toast.evaluate((el: any) => (el.duration = 200));
    await page.clock.runFor(1000);
    t.true(await notice.isVisible(), 'held by the pointer past its time');
    await notice.getByRole('button', { name: 'Undo' }).focus();
    await page.mouse.move(0, 0);
    await page.clock.runFor(1000);
    t.true(await notice.isVisible(), 'held by the focus past its time');
    await page.getByLabel('Question 1', { exact: true }).focus();
    await notice.waitFor({ state: 'hidden' });
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('more than 50 steps are kept: 52 moves are undone one by one', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const questions = ['A', 'B'].map((title) => ({ type: 'short_text', title }));
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Many steps', questions } })).body.id;
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    const titles = () => page.locator('fl-question-list li .title').allTextContents();
    await page.locator('fl-question-list li .pick').first().focus();
    for (let i = 0; i < 52; i++) {
      await page.keyboard.press(i % 2 === 0 ? 'Alt+ArrowDown' : 'Alt+ArrowUp');
      await page.getByRole('status').filter({ hasText: `“A” moved to position ${i % 2 === 0 ? 2 : 1} of 2.` }).waitFor();
    }
    await saved(page);
    for (let i = 0; i < 52; i++) {
      await page.keyboard.press('Control+z');
      await page.locator('fl-question-list li').first().locator('.title', { hasText: i % 2 === 0 ? 'B' : 'A' }).waitFor();
      t.deepEqual(await titles(), i % 2 === 0 ? ['B', 'A'] : ['A', 'B'], `after ${i + 1} undos`);
    }
    t.true(await page.getByRole('button', { name: 'Undo' }).isDisabled());
    await saved(page);
    t.deepEqual((await serverForm(id, owner.key)).questions.map((q: any) => q.title), ['A', 'B']);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
