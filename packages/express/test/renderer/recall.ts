import test from '../helpers/page-test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchBrowser, openPage } from '../helpers/browser';

/*
 * Recall on the respondent's page (docs/respondents.md "Recall"): a later title shows the earlier answer as
 * the respondent goes (text, a choice, a number in the page's language), the fallback when the question was
 * skipped, the thank-you title and the redirect URL too (encoded there), and an answer is never markup.
 * The page's rendering does not depend on the database: SQLite only.
 */
let browser: Browser;
let app: TestApp;
test.before(async () => {
  browser = await launchBrowser();
  app = await startTestApp('sqlite');
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

const form = (page: Page) => page.locator('formloom-form');
const heading = (page: Page, name: string | RegExp) => form(page).getByRole('heading', { name, exact: typeof name === 'string' ? true : undefined }).waitFor();

async function publishRecallForm(key: string) {
  const res = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Recall',
      published: true,
      language: 'en',
      thank_you_title: 'Bye {answer.name|friend}',
      redirect_url: `${app.url}/after?who={answer.name|nobody}&age={answer.age}`,
      questions: [
        { id: 'name', type: 'short_text', title: 'What is your name?' },
        { id: 'colour', type: 'multiple_choice', title: 'Which colour, {answer.name|friend}?', properties: { choices: [{ label: 'Red' }, { label: 'Same as {answer.name|you}' }] } },
        { id: 'age', type: 'number', title: 'How many plants have you got?' },
        { id: 'last', type: 'short_text', title: 'So {answer.name|friend}: {answer.colour} and {answer.age} plants?', description: 'Came from {hidden.src|nowhere}' },
      ],
      hidden_fields: ['src'],
    },
  });
  if (res.status !== 201 || !res.body.published) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

test('a later title shows the earlier answers as text, the thank-you title too, and the redirect URL carries them encoded', async (t) => {
  t.timeout(180_000);
  const { page, errors, close } = await openPage(browser);
  try {
    const u = await app.user();
    const f = await publishRecallForm(u.key);
    await page.goto(`${app.url}/f/${f.slug}?src=mail`);
    await heading(page, 'What is your name?');
    await page.keyboard.type('<b>Ada</b>');
    await page.keyboard.press('Enter');
    await heading(page, 'Which colour, <b>Ada</b>?');
    t.is(await form(page).locator('h1 b').count(), 0, 'the answer is text, never markup');
    const same = form(page).getByText('Same as <b>Ada</b>', { exact: true });
    await same.waitFor();
    await same.click();
    await heading(page, 'How many plants have you got?');
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    await heading(page, 'So <b>Ada</b>: Same as <b>Ada</b> and 1,234 plants?');
    await form(page).getByText('Came from mail', { exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await heading(page, 'Bye <b>Ada</b>');
    await page.waitForURL((url) => url.pathname === '/after', { timeout: 60_000 });
    const url = new URL(page.url());
    t.is(url.searchParams.get('who'), '<b>Ada</b>', 'the value was encoded into the query, not read as part of the address');
    t.is(url.searchParams.get('age'), '1,234');

    const stored = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
    const colour = stored.body.responses[0].answers.find((a: { question_id: string }) => a.question_id === f.questions[1]!.id);
    t.is(colour.value, `Same as {answer.${f.questions[0]!.id}|you}`, 'a choice answer is its label as written');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a skipped question shows the fallback, and no fallback shows nothing', async (t) => {
  t.timeout(180_000);
  const { page, errors, close } = await openPage(browser);
  try {
    const u = await app.user();
    const f = await publishRecallForm(u.key);
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'What is your name?');
    await page.keyboard.press('Enter');
    await heading(page, 'Which colour, friend?');
    await form(page).getByText('Same as you', { exact: true }).waitFor();
    await form(page).getByRole('button', { name: 'OK' }).click();
    await heading(page, 'How many plants have you got?');
    await page.keyboard.press('Enter');
    await heading(page, 'So friend: and plants?');
    await form(page).getByText('Came from nowhere', { exact: true }).waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
