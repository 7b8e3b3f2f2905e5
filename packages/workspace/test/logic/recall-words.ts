import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Plain words on every tab of the builder (issue 36): a form whose question title and choice recall an earlier
 * answer, with a variable, shows no raw `{answer.…}` / `{var.…}` token in any tab's text; a recall reads as
 * "@" and the question it names (docs/workspace.md, "Recall"). The Share tab's prefilled link and the Settings
 * tab's Variables hint showed the tokens before.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

/** Every text node (shadow roots included) that holds a recall token. */
const rawTokens = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const found: string[] = [];
    const walk = (root: any) => {
      const texts = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
      for (let n = texts.nextNode(); n; n = texts.nextNode()) if (/\{(answer|var|hidden)\./.test(n.data)) found.push(n.data.trim());
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(doc);
    return found;
  });

test('no builder tab shows a recall token; the Share tab names a recalled title with "@"', async (t) => {
  t.timeout(300_000);
  const owner = await app.user('pro');
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Dinner', variables: { score: 0 }, questions: [{ type: 'short_text', title: 'What is your name?' }, { type: 'dropdown', title: 'Meal', properties: { choices: [{ label: 'Fish' }] } }] },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const form = created.body;
  const name = form.questions[0].id;
  const meal = { ...form.questions[1], title: `Which meal, {answer.${name}|friend}?`, properties: { choices: [{ label: 'Fish' }, { label: `Chef's choice for {answer.${name}|you}` }] } };
  const put = await app.api('PUT', `/forms/${form.id}`, { key: owner.key, body: { title: 'Dinner', variables: { score: 0 }, questions: [form.questions[0], meal] } });
  t.is(put.status, 200, JSON.stringify(put.body));
  t.is((await app.api('POST', `/forms/${form.id}/publish`, { key: owner.key })).status, 200);

  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 1440 });
  try {
    for (const tab of ['', '/settings', '/theme', '/publish', '/versions', '/share', '/results', '/integrations']) {
      await page.goto(`${app.url}/forms/${form.id}${tab}`);
      await page.getByRole('link', { name: 'Questions' }).waitFor();
      await page.waitForLoadState('networkidle');
      if (tab === '/share') {
        const select = page.getByRole('combobox', { name: 'Which meal, @What is your name??' });
        await select.waitFor();
        t.deepEqual(await select.locator('option').allTextContents(), ['No value', 'Fish', "Chef's choice for @What is your name?"]);
      }
      if (tab === '/settings') await page.getByRole('heading', { name: 'Variables' }).waitFor();
      t.deepEqual(await rawTokens(page), [], `no token on ${tab || '/'}`);
    }
    t.deepEqual(await axeViolations(page), [], 'axe on the last tab');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
