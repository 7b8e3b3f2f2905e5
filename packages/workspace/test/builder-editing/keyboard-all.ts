import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, pressTimes, tabTo } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The whole builder flow by the keyboard alone at 390 px (docs/workspace.md, "Keyboard"): every question kind
 * added, a logic jump chosen from lists, a theme colour typed, the kinds that need outside set-up (a Fuse
 * form, a calendar, a mail) deleted, publish; a respondent answers with the keyboard in a fresh browser.
 */

/** The "New question" list in its order (packages/workspace/src/browser/builder/kinds/registry.ts, by group). */
const ORDER = ['short_text', 'long_text', 'email', 'number', 'date', 'yes_no', 'multiple_choice', 'dropdown', 'rating', 'opinion_scale', 'file_upload', 'contact_info', 'address', 'question_group', 'multi_question_page', 'contract', 'booking', 'payment', 'data', 'email_step', 'fuse', 'composite'];
/** Added in this order: the yes/no question first, for the jump. */
const ADDED = ['yes_no', ...ORDER.filter((k) => k !== 'yes_no')];

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();

test('at 390 px by the keyboard alone: every kind, a logic jump, a theme, publish; a respondent answers by keyboard', async (t) => {
  t.timeout(400_000);
  const owner = await app.user('business');
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'No forms yet' }).waitFor();
    await tabTo(page, (el) => el.text === 'New form');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.text.startsWith('Blank form'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Add your first question' }).waitFor();
    await tabTo(page, (el) => el.label === 'Form title' || el.value === 'Untitled form', { back: true, max: 40 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Keyboard form');

    for (const [n, kind] of ADDED.entries()) {
      await tabTo(page, (el) => el.tag === 'select' && el.label.startsWith('New question'), { back: n > 0, max: 60 });
      await page.keyboard.press('Home');
      await pressTimes(page, 'ArrowDown', ORDER.indexOf(kind));
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByLabel(`Question ${n + 1}`, { exact: true }).waitFor();
      await page.keyboard.type(kind === 'yes_no' ? 'Skip to the end?' : `Kind ${kind}`);
    }
    await status(page, 'All changes saved');
    t.deepEqual(await axeViolations(page), []);

    // The jump: question 1, answered Yes, goes to the end; every choice made from a list with the keys.
    await tabTo(page, (el) => el.text.includes('Skip to the end?') && el.tag === 'button', { back: true, max: 300 });
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.text === 'Logic jumps');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.text === 'Add a jump');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.tag === 'select' && el.label.startsWith('Test'), { back: true, max: 20 });
    await page.keyboard.press('Home');
    await tabTo(page, (el) => el.tag === 'select' && el.label === 'Jump 1: then');
    await page.keyboard.press('End');
    await status(page, 'All changes saved');

    // The kinds that need set-up outside the form (or an amount) are deleted, the last first.
    for (const kind of ['composite', 'fuse', 'email_step', 'payment', 'booking']) {
      const n = ADDED.indexOf(kind) + 1;
      await tabTo(page, (el, name) => el.label === name, { back: true, max: 300, arg: `Delete question ${n}` });
      await page.keyboard.press('Enter');
    }
    await status(page, 'All changes saved');

    await tabTo(page, (el) => el.text === 'Theme', { back: true, max: 300 });
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.tag === 'input' && el.label === 'Accent');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('#0f766e');
    await status(page, 'All changes saved');
    t.deepEqual(await axeViolations(page), []);

    await tabTo(page, (el) => el.text === 'Publish', { back: true, max: 60 });
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Publish');
    await page.keyboard.press('Enter');
    await page.getByText('Version 1 is live.').waitFor();
    t.deepEqual(await axeViolations(page), []);

    const list = await app.api('GET', '/forms', { key: owner.key });
    const form = (await app.api('GET', `/forms/${list.body.forms[0].id}`, { key: owner.key })).body;
    t.is(form.title, 'Keyboard form');
    t.true(form.published);
    t.is(form.theme_color, '#0f766e');
    t.deepEqual(form.questions.map((q: any) => q.type), ADDED.filter((k) => !['composite', 'fuse', 'email_step', 'payment', 'booking'].includes(k)));
    t.deepEqual(form.questions[0].logic_jumps, [{ conditions: [{ op: 'equals', value: true }], to: 'end' }]);

    const respondent = await openPage(browser, { width: 390 });
    try {
      await respondent.page.goto(`${app.url}/f/${form.slug}`);
      await respondent.page.getByRole('heading', { name: /Skip to the end\?/ }).waitFor();
      await respondent.page.keyboard.press('y');
      await respondent.page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      t.deepEqual(respondent.errors, []);
    } finally {
      await respondent.close();
    }
    const responses = await app.api('GET', `/forms/${form.id}/responses`, { key: owner.key });
    t.deepEqual(responses.body.responses.map((r: any) => r.answers.map((a: any) => a.value)), [[true]]);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
