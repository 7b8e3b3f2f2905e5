import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { serverHas, type WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, tabTo } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * A deleted question's "Undo" by keyboard and by touch (docs/workspace.md, "Undo and redo"): the notice and
 * its button go away once pressed, so the focus goes to the question it brought back (its entry in the
 * question list), never to the page (issue 36: every builder action works by keyboard).
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

/** The focused element through shadow roots: its tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let a: any = (globalThis as any).document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return { tag: (a?.tagName ?? '').toLowerCase(), text: (a?.textContent ?? '').replace(/\s+/g, ' ').trim() };
  });

for (const [how, width] of [['keyboard', 1440], ['touch', 390]] as const) {
  test(`Undo in a deleted question's notice brings it back with the focus on it (${how}, ${width} px)`, async (t) => {
    t.timeout(240_000);
    const owner = await app.user();
    const questions = ['First', 'Second', 'Third'].map((title) => ({ type: 'short_text', title }));
    const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Undo focus', questions } })).body.id;
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${id}`);
      // The notice stays until used (its time is undo.ts's subject): the keys that reach its Undo take as long
      // as a busy machine lets them, past its 8 s.
      await page.locator('fl-toast').evaluate((el: any) => (el.duration = 600_000));
      const del = page.getByRole('button', { name: 'Delete question 2' });
      if (how === 'keyboard') {
        await del.focus();
        await page.keyboard.press('Enter');
      } else await del.tap();
      const notice = page.getByRole('status').filter({ hasText: 'Question 2 deleted', has: page.getByRole('button', { name: 'Undo' }) });
      await notice.waitFor();
      await serverHas(app, id, owner.key, (f) => f.questions.length === 2);
      if (how === 'keyboard') {
        t.regex((await focused(page)).text, /Third/, 'the delete leaves the focus on the next question');
        await tabTo(page, (el) => el.tag === 'button' && el.text === 'Undo');
        await page.keyboard.press('Enter');
      } else await notice.getByRole('button', { name: 'Undo' }).tap();
      await notice.waitFor({ state: 'hidden' });
      const back = await focused(page);
      t.is(back.tag, 'button', 'a control has the focus, not the page');
      t.regex(back.text, /2 · Short text Second/, 'the question brought back has the focus');
      await serverHas(app, id, owner.key, (f) => f.questions.map((q: any) => q.title).join() === 'First,Second,Third');
      t.deepEqual(await axeViolations(page), []);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
