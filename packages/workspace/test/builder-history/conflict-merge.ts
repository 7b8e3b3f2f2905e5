import test from '../helpers/bounded-test';
import type { Page } from 'playwright-core';
import { axeViolations, openPage, pauseClock } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Two tabs editing one form (docs/workspace.md, "When the form changed elsewhere"): a save that meets the
 * other tab's is merged field by field. What both changed is asked in the conflict panel ("Keep mine" /
 * "Take theirs", by keyboard), the rest is merged at once, and the result saves with the server's new ETag.
 * The other tab's next save merges without a conflict and says so. Screenshots go to $FORMLOOM_SHOTS.
 */

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

test('two tabs: conflicts chosen field by field, the rest merged, saved with the new ETag', async (t) => {
  t.timeout(300_000);
  const [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
  const owner = await app.user();
  const titles = async () => ((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.questions as Array<{ title: string }>).map((q) => q.title);
  async function serverHas(check: (form: any) => boolean): Promise<any> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const form = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body;
      if (check(form)) return form;
      if (Date.now() > deadline) throw new Error(`the server never got there: ${JSON.stringify({ title: form.title, questions: form.questions.map((q: any) => q.title) })}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Survey', questions: ['Name', 'Age', 'Comments', 'Email'].map((title) => ({ type: 'short_text', title })) },
  });
  const id = created.body.id as string;
  const a = await openPage(browser, { width: 1440, cookie: owner.cookie });
  const b = await openPage(browser, { width: 1440, cookie: owner.cookie });
  const pick = (page: Page, name: RegExp) => page.getByRole('list', { name: 'Questions' }).getByRole('button', { name }).first().click();
  try {
    // Tab A's clock is the test's: its three edits below are made while it stands still, so they meet tab B's
    // save as one autosave, however long a busy machine takes between them (the builder saves 700 ms after an edit).
    await a.page.clock.install();
    await Promise.all([a.page, b.page].map((p) => p.goto(`${app.url}/forms/${id}`)));
    await Promise.all([a.page, b.page].map((p) => p.getByRole('textbox', { name: 'Form title' }).waitFor()));

    // The other tab: retitles questions 2 and 3, deletes question 4, and saves.
    await pick(b.page, /Age/);
    await b.page.getByLabel('Question 2', { exact: true }).fill('Your age');
    await pick(b.page, /Comments/);
    await b.page.getByLabel('Question 3', { exact: true }).fill('Anything else?');
    await b.page.getByRole('button', { name: 'Delete question 4' }).click();
    await saved(b.page);
    await serverHas((f) => f.questions.length === 3 && f.questions[1].title === 'Your age' && f.questions[2].title === 'Anything else?');

    // This tab, which read the form before: question 4 (deleted there), question 2 (retitled there), question 1.
    await pauseClock(a.page);
    await pick(a.page, /Email/);
    await a.page.getByLabel('Question 4', { exact: true }).fill('Email address');
    await pick(a.page, /Age/);
    await a.page.getByLabel('Question 2', { exact: true }).fill('Age in years');
    await pick(a.page, /Name/);
    await a.page.getByLabel('Question 1', { exact: true }).fill('Full name');
    await a.page.clock.resume();

    const panel = a.page.getByRole('region', { name: 'This form was also changed elsewhere' });
    const q2 = panel.getByRole('group', { name: 'Question 2 · Title' });
    const q4 = panel.getByRole('group', { name: 'Question 4', exact: true });
    await q2.waitFor();
    await q4.waitFor();
    t.is(await panel.getByRole('group').count(), 2, 'only what both changed is asked');
    await q2.getByText('Yours: “Age in years”').waitFor();
    await q2.getByText('Theirs: “Your age”').waitFor();
    await q4.getByText('Yours: kept “Email address” and changed its title').waitFor();
    await q4.getByText('Theirs: deleted').waitFor();
    await panel.getByText('Their other changes are already in your draft: Question 3 · Title.').waitFor();
    t.truthy(await panel.getByRole('alert').textContent());
    // Their change that touches nothing of mine is on screen already; nothing was saved over theirs.
    await a.page.getByRole('list', { name: 'Questions' }).getByText('Anything else?').waitFor();
    t.deepEqual(await titles(), ['Name', 'Your age', 'Anything else?']);
    t.deepEqual(await axeViolations(a.page), []);
    const dir = process.env.FORMLOOM_SHOTS;
    if (dir) await a.page.screenshot({ path: `${dir}/workspace-conflict.png` });
    await a.page.setViewportSize({ width: 390, height: 844 });
    t.true((await a.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)) <= 390);
    t.deepEqual(await axeViolations(a.page), []);
    if (dir) {
      const box = (await panel.boundingBox())!;
      const top = await a.page.evaluate(() => (globalThis as any).scrollY as number);
      await a.page.screenshot({ path: `${dir}/workspace-conflict-phone.png`, fullPage: true, clip: { x: 0, y: 0, width: 390, height: box.y + top + box.height + 12 } });
    }
    await a.page.setViewportSize({ width: 1440, height: 900 });

    // By keyboard: question 2 takes theirs (arrow keys move within the pair), question 4 keeps mine, save.
    await q2.getByRole('radio', { name: /Keep mine/ }).focus();
    await a.page.keyboard.press('ArrowDown');
    t.true(await q2.getByRole('radio', { name: /Take theirs/ }).isChecked());
    t.true(await q4.getByRole('radio', { name: /Keep mine/ }).isChecked(), 'mine until chosen otherwise');
    await panel.getByRole('button', { name: 'Keep mine for all' }).focus();
    await a.page.keyboard.press('Tab');
    await a.page.keyboard.press('Tab');
    await a.page.keyboard.press('Enter');
    await saved(a.page);
    t.is(await panel.count(), 0);
    const merged = await serverHas((f) => f.questions.length === 4);
    t.deepEqual(merged.questions.map((q: any) => q.title), ['Full name', 'Your age', 'Anything else?', 'Email address']);

    // The other tab's next save meets this one's: nothing both changed, so it merges, says so, and saves.
    await b.page.getByRole('textbox', { name: 'Form title' }).fill('Team survey');
    await b.page.getByText('Changes made elsewhere were merged with yours: Question 1 · Title, Question 4 · added.').waitFor();
    await saved(b.page);
    const final = await serverHas((f) => f.title === 'Team survey');
    t.deepEqual(final.questions.map((q: any) => q.title), ['Full name', 'Your age', 'Anything else?', 'Email address']);
    await b.page.getByRole('list', { name: 'Questions' }).getByText('Email address').waitFor();
    t.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await a.close();
    await b.close();
  }
});
