import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { type WorkspaceTestApp, serverHas as serverHasOn } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Unfinished drafts (docs/workspace.md, "Saving"): a question without a title is kept in the browser and
 * marked "Needs a title", never a failed save; publishing asks for the title first. The question list shows
 * each kind's icon, whole titles on up to two lines, and badges; an empty form's preview is an empty state.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
const serverHas = (id: string, key: string, check: (form: any) => boolean) => serverHasOn(app, id, key, check);

test('a new question without a title is no failed save: it waits in the browser, marked "Needs a title"', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Drafty', questions: [{ type: 'short_text', title: 'Name' }] } })).body.id;
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    await page.getByLabel('Question 1', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByLabel('Question 2', { exact: true }).waitFor();
    // A later edit elsewhere is saved while the new question waits.
    await page.getByRole('textbox', { name: 'Form title' }).fill('Drafty form');
    await saved(page);
    await serverHas(id, owner.key, (f) => f.title === 'Drafty form');
    t.is(await page.getByText('Not saved').count(), 0, 'no failed save');
    t.is(await page.getByRole('button', { name: 'Retry' }).count(), 0);
    t.is(await page.locator('fl-question-list li').nth(1).locator('.tag', { hasText: 'Needs a title' }).count(), 1);
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.questions.length, 1, 'the unfinished question is not sent');
    t.deepEqual(await axeViolations(page), []);

    // Publishing is refused beside the question until it has a title.
    await page.getByRole('link', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'One question is not finished (needs a title)' }).waitFor();
    t.false((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.published);
    await page.getByRole('link', { name: 'Question 2: Untitled' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('Email');
    await saved(page);
    const form = await serverHas(id, owner.key, (f) => f.questions.length === 2);
    t.deepEqual(form.questions.map((q: any) => q.title), ['Name', 'Email']);
    t.is(await page.locator('.tag', { hasText: 'Needs a title' }).count(), 0);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an empty form previews as an empty state, never as a lost connection', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Nothing yet' } })).body.id;
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    for (const tab of ['', '/settings', '/theme']) {
      await page.goto(`${app.url}/forms/${id}${tab}`);
      const preview = page.locator('fl-preview formloom-form');
      await preview.getByText('Nothing yet').first().waitFor();
      const text = await preview.evaluate((el) => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' '));
      t.notRegex(text, /connection|Retry/i, `the preview of ${tab || 'the questions'}`);
    }
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the question list shows each kind\'s icon, whole titles on up to two lines, and badges at 1440 px', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const long = 'How likely are you to recommend us to a friend or a colleague?';
  const created = (await app.api('POST', '/forms', {
    key: owner.key,
    body: {
      title: 'Badges',
      questions: [
        { type: 'short_text', title: 'What should we call you?', required: true },
        { type: 'opinion_scale', title: long },
        { type: 'long_text', title: 'Anything else?' },
      ],
    },
  })).body;
  const [q1, q2, q3] = created.questions;
  await app.api('PUT', `/forms/${created.id}`, {
    key: owner.key,
    body: { questions: [q1, { ...q2, description: `Thanks, {answer.${q1.id}|friend}.`, logic_jumps: [{ conditions: [{ op: 'greater_than', value: 8 }], to: q3.id }] }, q3] },
  });
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.id}`);
    const items = page.locator('fl-question-list li');
    await items.nth(2).waitFor();
    t.is(await items.locator('svg.kind-icon').count(), 3, 'each question shows its kind\'s icon');
    for (let i = 0; i < 3; i++) {
      const fits = await items.nth(i).locator('.title').evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.getClientRects().length <= 2 && el.clientHeight < 3 * parseFloat((globalThis as any).getComputedStyle(el).lineHeight));
      t.true(fits, `title ${i + 1} is shown whole`);
    }
    t.is(await items.nth(1).locator('.title').textContent(), long);
    t.deepEqual(await items.nth(0).locator('.tag').allTextContents(), ['Required']);
    t.deepEqual(await items.nth(1).locator('.tag').allTextContents(), ['Logic', 'Recall']);
    t.deepEqual(await items.nth(2).locator('.tag').allTextContents(), []);
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
