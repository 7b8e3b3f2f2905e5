import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { type WorkspaceTestApp, serverHas as serverHasOn } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Recall in the builder (docs/workspace.md, "Recall"): `@` typed in a question's title offers the earlier
 * questions, hidden fields and variables (not the question itself nor later ones), inserting stores the
 * id-based token, the line under the field reads it with the question's title, and the "Recall" button does
 * the same for a field by click; the welcome screen offers no answers. FORMLOOM_SHOTS=<dir> saves the
 * open list's screenshot there (docs/images/workspace-recall.png).
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const serverHas = (id: string, key: string, check: (form: any) => boolean) => serverHasOn(app, id, key, check);

async function shot(page: Page, name: string) {
  const dir = process.env.FORMLOOM_SHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

const options = (page: Page) => page.getByRole('listbox', { name: 'What to recall' }).getByRole('option').allTextContents();

// Alone: it races the page's clock (what is typed while the list of what to recall opens):
// a page sharing the cores with the file's other pages can lose it.
test.serial('typing @ in a title offers earlier questions, hidden fields and variables; inserting stores the token and reads as the title', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: {
      title: 'Recall',
      hidden_fields: ['src'],
      variables: { score: 0 },
      questions: [
        { type: 'short_text', title: 'What is your name?' },
        { type: 'number', title: 'How many plants?' },
        { type: 'short_text', title: 'Thanks' },
        { type: 'short_text', title: 'Later one' },
      ],
    },
  });
  const id = created.body.id as string;
  const [name] = created.body.questions as Array<{ id: string }>;
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    await page.getByRole('button', { name: /Thanks/ }).first().click();
    const title = page.getByLabel('Question 3', { exact: true });
    await title.waitFor();
    await title.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(', @');
    await page.getByRole('listbox', { name: 'What to recall' }).waitFor();
    t.deepEqual(await options(page), ['Question 1: What is your name?', 'Question 2: How many plants?', 'Hidden field: src', 'Variable: score'], 'not itself, not a later question');
    t.deepEqual(await axeViolations(page), []);

    // The typing goes on in the menu's search; Enter inserts the highlighted choice in place of the @.
    await page.keyboard.type('name');
    t.deepEqual(await options(page), ['Question 1: What is your name?']);
    await shot(page, 'workspace-recall');
    await page.keyboard.press('Enter');
    t.is(await title.inputValue(), `Thanks, {answer.${name!.id}}`);
    await page.getByText('Reads: Thanks, What is your name?').waitFor();
    await page.keyboard.type('!');
    t.is(await title.inputValue(), `Thanks, {answer.${name!.id}}!`, 'the caret is after the token');
    // The question list names what is recalled, never the raw token.
    await page.locator('fl-question-list li[aria-current="true"] .title').filter({ hasText: 'Thanks, @What is your name?!' }).waitFor();

    // The button beside the description, with a fallback, chosen by click.
    await page.getByRole('button', { name: 'Recall an answer in the description' }).click();
    await page.getByRole('textbox', { name: 'If it is empty, show' }).fill('zero');
    await page.getByRole('option', { name: 'Variable: score' }).click();
    t.is(await page.getByRole('textbox', { name: 'Description', exact: true }).inputValue(), '{var.score|zero}');

    await serverHas(id, owner.key, (f) => f.questions[2].title === `Thanks, {answer.${name!.id}}!` && f.questions[2].description === '{var.score|zero}');

    // Escape closes the menu and leaves the @ typed as it is.
    await title.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' @');
    await page.getByRole('listbox', { name: 'What to recall' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'What to recall' }).waitFor({ state: 'detached' });
    t.is(await title.inputValue(), `Thanks, {answer.${name!.id}}! @`);

    // A question just made in this tab: the token names the id the service gives it, not the temporary one.
    await page.getByRole('button', { name: 'Add question' }).click();
    const fresh = page.getByLabel('Question 4', { exact: true });
    await fresh.waitFor();
    await fresh.fill('Favourite fruit?');
    await page.getByRole('button', { name: /Later one/ }).first().click();
    const last = page.getByLabel('Question 5', { exact: true });
    await last.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' @fruit');
    await page.keyboard.press('Enter');
    await page.getByText('Reads: Later one Favourite fruit?').waitFor();
    const saved = await serverHas(id, owner.key, (f) => f.questions.length === 5 && /\{answer\./.test(f.questions[4].title));
    t.is(saved.questions[4].title, `Later one {answer.${saved.questions[3].id}}`);
    // Published by the API only now: a publish changes the form's tag, and the open builder would see a conflict.
    const published = await app.api('POST', `/forms/${id}/publish`, { key: owner.key });
    t.is(published.status, 200, 'the recalls inserted pass the publish checks');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the welcome screen offers hidden fields and variables but no answers; the thank-you screen offers every question', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Screens', hidden_fields: ['src'], questions: [{ type: 'short_text', title: 'Name' }, { type: 'email', title: 'Mail' }] },
  });
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.body.id}/settings`);
    await page.getByRole('button', { name: 'Recall an answer in the welcome title' }).click();
    t.deepEqual(await options(page), ['Hidden field: src']);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Recall an answer in the thank-you title' }).click();
    t.deepEqual(await options(page), ['Question 1: Name', 'Question 2: Mail', 'Hidden field: src']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('Reads: Thank you! Mail').waitFor();
    t.regex(await page.getByRole('group', { name: 'Thank-you screen' }).getByRole('textbox', { name: 'Title', exact: true }).inputValue(), /^Thank you! \{answer\.q_\w+\}$/, 'after the default title, a space first');
    t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'fits 390 px');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// In this file for its browser: the settings screen's retention fields (docs/privacy.md, "Retention").
test('Keeping responses: the two fields set the form response_retention, and emptied they keep every response', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Kept', questions: [{ type: 'short_text', title: 'Name' }] } });
  const id = created.body.id;
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}/settings`);
    const newest = page.getByRole('spinbutton', { name: 'Keep only the newest (responses)' });
    const days = page.getByRole('spinbutton', { name: 'Delete responses older than (days)' });
    await newest.fill('500');
    await serverHas(id, owner.key, (f) => f.response_retention?.keep_newest === 500);
    await days.fill('90');
    await serverHas(id, owner.key, (f) => f.response_retention?.older_than_days === 90 && f.response_retention?.keep_newest === 500);
    await shot(page, 'workspace-retention');
    t.deepEqual(await axeViolations(page), []);
    await newest.fill('');
    await days.fill('');
    const form = await serverHas(id, owner.key, (f) => f.response_retention === null);
    t.is(form.response_retention, null);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
