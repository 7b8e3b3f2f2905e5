import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Results name a question whose title recalls an earlier answer as the builder does: "@" and the recalled
 * question's title, never the raw `{answer.<id>|fallback}` token (docs/workspace.md, "Recall"). The raw
 * token has no place to break: at 390 px it pushed the summary, the filter bar and the top bar 50 px past the
 * screen (issue 36: no screen scrolls sideways at 390 px).
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

/** Every text node on the page, shadow roots included, that still holds a recall token. */
const rawTokens = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const found: string[] = [];
    const walk = (root: any) => {
      const texts = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
      for (let n = texts.nextNode(); n; n = texts.nextNode()) if (n.data.includes('{answer.')) found.push(n.data.trim());
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(doc);
    return found;
  });
const scrollWidth = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);

for (const width of [390, 1440]) {
  test(`a recalled title reads as "@" and the question in the summary, the funnel and the table; nothing scrolls sideways (${width} px)`, async (t) => {
    t.timeout(300_000);
    const owner = await app.user('pro');
    const created = await app.api('POST', '/forms', {
      key: owner.key,
      body: { title: 'Visit', questions: [{ type: 'short_text', title: 'What is your name?' }, { type: 'rating', title: 'How was it?' }] },
    });
    t.is(created.status, 201);
    const form = created.body;
    const [name, rating] = form.questions.map((q: { id: string }) => q.id);
    const put = await app.api('PUT', `/forms/${form.id}`, {
      key: owner.key,
      body: { title: 'Visit', questions: [form.questions[0], { ...form.questions[1], title: `How would you rate your visit, {answer.${name}|there}?` }] },
    });
    t.is(put.status, 200, JSON.stringify(put.body));
    t.is((await app.api('POST', `/forms/${form.id}/publish`, { key: owner.key })).status, 200);
    for (const [who, stars] of [['Grace', 4], ['Alan', 5]] as const) {
      const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: name, value: who }, { question_id: rating, value: stars }] } });
      t.is(res.status, 201);
    }

    const readable = 'How would you rate your visit, @What is your name??';
    const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width });
    try {
      await page.goto(`${app.url}/forms/${form.id}/results`);
      await page.getByRole('heading', { name: readable, exact: true }).waitFor();
      await page.locator('ol.funnel li', { hasText: readable }).waitFor();
      t.deepEqual(await rawTokens(page), [], 'no raw token in the summary, the drop-off or the funnel');
      t.true((await scrollWidth(page)) <= width + 1, `the summary fits ${width} px`);
      t.deepEqual(await axeViolations(page), [], 'axe on the summary');

      await page.getByRole('button', { name: /^Responses/ }).click();
      await page.getByRole('cell', { name: 'Grace' }).waitFor(); // at 390 px a card's cell also names its column
      t.deepEqual(await rawTokens(page), [], 'no raw token in the table');
      t.true((await scrollWidth(page)) <= width + 1, `the table fits ${width} px`);
      t.deepEqual(await axeViolations(page), [], 'axe on the table');
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
