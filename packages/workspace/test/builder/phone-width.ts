import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * At 390 px the builder never scrolls sideways (docs/workspace.md, "Keyboard and screen readers"), whichever
 * kind of question is open: groups' fields and choices used to push it to 415 px.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

test('at 390 px every question kind\'s editor fits the screen', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Narrow' } })).body.id;
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    const kinds = page.getByRole('combobox', { name: 'New question' });
    const types = await kinds.evaluate((s: any) => [...s.options].map((o: any) => o.value as string));
    t.true(types.length >= 20);
    const wide: string[] = [];
    for (const [i, type] of types.entries()) {
      await kinds.selectOption(type);
      await page.getByRole('button', { name: 'Add question' }).click();
      await page.getByLabel(`Question ${i + 1}`, { exact: true }).waitFor();
      const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${type}: ${width}px`);
      if (type === 'question_group' || type === 'multiple_choice') t.deepEqual(await axeViolations(page), [], type);
    }
    t.deepEqual(wide, [], 'no kind makes the page wider than the screen');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
