import test from '../helpers/page-test';
import type { Browser, Page } from 'playwright-core';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { launchBrowser, openPage } from '../helpers/browser';

/*
 * `randomize` on multiple-choice questions (docs/respondents.md "Choice order"): the page shows the
 * choices in an order drawn per respondent session, the same on every showing (back, reload), another in
 * another session; letters follow the order shown; the stored answer is the labels, in the form's order.
 */
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const LABELS = Array.from({ length: 12 }, (_, i) => `Choice ${String.fromCharCode(65 + i)}${i}`);
const FRUITS = ['Apple', 'Banana', 'Cherry', 'Date', 'Elderberry', 'Fig', 'Grape', 'Kiwi'];
const choices = (labels: string[]) => labels.map((label) => ({ label }));
const QUESTIONS = [
  { type: 'multiple_choice', title: 'Pick one', properties: { randomize: true, choices: choices(LABELS) } },
  { type: 'multiple_choice', title: 'Pick fruits', properties: { randomize: true, allow_multiple: true, allow_other: true, choices: choices(FRUITS) } },
  { type: 'multiple_choice', title: 'Kept in order', properties: { choices: choices(LABELS) } },
];

const form = (page: Page) => page.locator('formloom-form');
const at = (page: Page, title: string) => form(page).locator('.fl-question').filter({ hasText: title }).waitFor();
/** The choices' labels in the order the page shows them, and their letters. */
const shown = (page: Page) => form(page).locator('.fl-choice label span:not(.fl-key)').allInnerTexts();
const letters = (page: Page) => form(page).locator('.fl-choice .fl-key').allInnerTexts();

for (const kind of DB_KINDS) {
  test(`[${kind}] randomized choices: one order per respondent session, stable across back and reload; answers in the form's order`, async (t) => {
    t.timeout(180_000);
    const app = await startTestApp(kind);
    const first = await openPage(browser);
    const second = await openPage(browser);
    try {
      const u = await app.user();
      const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Shuffled', published: true, questions: QUESTIONS } });
      t.is(created.status, 201, created.text);
      const f = created.body as { id: string; slug: string; questions: Array<{ id: string }> };
      t.is((await app.api('GET', `/public/forms/${f.slug}`)).body.snapshot.questions[0].properties.randomize, true);
      const { page, errors } = first;
      await page.goto(`${app.url}/f/${f.slug}`);
      await at(page, 'Pick one');
      const order = await shown(page);
      t.deepEqual([...order].sort(), [...LABELS].sort(), 'every choice, once');
      t.notDeepEqual(order, LABELS, 'not the form order (1 chance in 12! of a false failure)');
      t.deepEqual(await letters(page), LABELS.map((_, i) => String.fromCharCode(65 + i)), 'letters follow the order shown');

      await page.reload();
      await at(page, 'Pick one');
      t.deepEqual(await shown(page), order, 'a reload keeps the order');

      // Another session (another browser context) draws another order.
      await second.page.goto(`${app.url}/f/${f.slug}`);
      await at(second.page, 'Pick one');
      const other = await shown(second.page);
      t.deepEqual([...other].sort(), [...LABELS].sort());
      t.notDeepEqual(other, order, 'another session, another order');

      // Letter A picks the first choice shown; a single pick moves on.
      await page.keyboard.press('a');
      await at(page, 'Pick fruits');
      const fruits = await shown(page);
      t.deepEqual([...fruits].sort(), [...FRUITS].sort());
      t.notDeepEqual(fruits, FRUITS);
      t.is(await form(page).locator('.fl-other').count(), 1, '"Other" is still offered, after the choices');
      await form(page).getByRole('button', { name: 'Previous question' }).click();
      await at(page, 'Pick one');
      t.deepEqual(await shown(page), order, 'going back keeps the order');
      t.true(await form(page).getByRole('radio', { name: order[0]!, exact: true }).isChecked(), 'A picked the first choice shown');
      await page.keyboard.press('Enter');
      await at(page, 'Pick fruits');
      t.deepEqual(await shown(page), fruits);
      await page.keyboard.press('c');
      await page.keyboard.press('a');
      await page.keyboard.press('Enter');
      await at(page, 'Kept in order');
      t.deepEqual(await shown(page), LABELS, 'without randomize, the form order');
      await page.keyboard.press('b');
      await form(page).getByRole('heading', { name: 'Thank you!' }).waitFor();

      const list = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
      t.is(list.body.total, 1);
      const answers = Object.fromEntries(list.body.responses[0].answers.map((a: any) => [a.question_id, a.value]));
      t.is(answers[f.questions[0]!.id], order[0]);
      const picked = new Set([fruits[0]!, fruits[2]!]);
      t.deepEqual(answers[f.questions[1]!.id], FRUITS.filter((l) => picked.has(l)), "a multiple selection in the form's order");
      t.is(answers[f.questions[2]!.id], LABELS[1]);
      t.deepEqual(errors, []);
      t.deepEqual(second.errors, []);
    } finally {
      await first.close();
      await second.close();
      await app.close();
    }
  });
}
