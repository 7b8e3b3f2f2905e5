import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Results' filter bar and funnel (issue 37; docs/workspace.md, "Results"): a condition added by keyboard
 * (question, test, value) narrows the summary, the table and the downloads, and stays in the URL across a
 * reload; all/any, completion and version; the funnel card with its numbers table; 1280 and 390 px, axe 0.
 * FORMLOOM_SHOTS=<dir> also saves each state's screenshot there.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const CITIES = ['Berlin', 'Paris', 'Lagos', 'Osaka'];

async function surveyForm(key: string) {
  const created = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'City survey',
      published: true,
      incremental_submission: true,
      questions: [
        { type: 'dropdown', title: 'Which city?', properties: { choices: CITIES.map((label) => ({ label })) } },
        { type: 'opinion_scale', title: 'Would you recommend us?' },
        { type: 'short_text', title: 'What should we improve?' },
        { type: 'yes_no', title: 'First visit?' },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const form = created.body;
  const ids = form.questions.map((q: { id: string }) => q.id) as string[];
  for (let i = 0; i < 12; i++) {
    const answers = [
      { question_id: ids[0], value: CITIES[i % 4] },
      ...(i % 5 === 4 ? [] : [{ question_id: ids[1], value: [10, 9, 6, 3][i % 4] }]),
      ...(i % 3 === 2 ? [] : [{ question_id: ids[2], value: i % 2 ? 'Faster checkout' : 'More trains' }]),
      ...(i % 5 === 4 ? [] : [{ question_id: ids[3], value: i % 2 === 0 }]),
    ];
    const partial = i % 6 === 5;
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers, ...(partial ? { completed: false } : { started_at: new Date(Date.now() - (60 + i * 20) * 1000).toISOString() }) },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  for (let i = 0; i < 20; i++) await app.api('POST', `/public/forms/${form.slug}/visits`, { body: { event: i < 15 ? 'view' : 'start' } });
  return form as { id: string; slug: string };
}

const stat = (page: Page, name: string) => page.locator('.stat', { hasText: name }).locator('.n');

test('filter bar by keyboard: summary, table and downloads follow, kept in the URL; the funnel; 1280 and 390 px, axe 0', async (t) => {
  t.timeout(400_000);
  const owner = await app.user('pro');
  const form = await surveyForm(owner.key);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await t.notThrowsAsync(stat(page, 'Responses').filter({ hasText: '12' }).waitFor());

    // The funnel: views (15) -> starts (12 responses, more than the 5 reported) -> questions -> completed (10).
    const funnel = page.locator('section.qcard', { has: page.getByRole('heading', { name: /^Funnel/ }) });
    await funnel.locator('li').first().waitFor();
    const steps = (await funnel.locator('ol.funnel > li').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    t.is(steps.length, 7);
    t.regex(steps[0]!, /^Viewed the form 15 · 100 %/);
    t.regex(steps[1]!, /^Started 12 · 80 % −3 \(20 %\) since the step before/);
    t.regex(steps[6]!, /^Completed 10 · 66\.7 %/);
    await funnel.getByText('Show the numbers').click();
    t.true(await funnel.getByRole('rowheader', { name: 'Completed' }).isVisible());
    t.regex(await funnel.innerText(), /Median time to complete/);
    t.deepEqual(await axeViolations(page), [], 'axe on the summary with the funnel');
    await shot(page, 'results-funnel-1280');

    // Add a condition by keyboard: Which city? is Berlin.
    const add = page.getByRole('button', { name: 'Add condition' });
    await add.focus();
    await page.keyboard.press('Enter');
    const question = page.getByRole('combobox', { name: 'Question' });
    await t.notThrowsAsync(page.waitForFunction(() => {
      let a: any = (globalThis as any).document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a?.getAttribute('name') === 'question';
    }), 'the new condition takes the focus');
    await question.selectOption({ label: 'Which city?' });
    await page.keyboard.press('Tab');
    await page.getByRole('combobox', { name: 'Test' }).selectOption({ label: 'is' });
    await page.getByRole('combobox', { name: 'Value' }).selectOption('Berlin');
    await t.notThrowsAsync(stat(page, 'Responses').filter({ hasText: /^3$/ }).waitFor(), 'the summary counts the 3 Berlin responses');
    t.regex(page.url(), /filter=/);
    t.regex(decodeURIComponent(page.url()), /"op":"equals","value":"Berlin"/);
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    t.regex(decodeURIComponent(csv!), /filter=\{"match":"all","conditions":\[\{"question_id":"[^"]+","op":"equals","value":"Berlin"\}\]\}/);
    const city = page.locator('section.qcard', { has: page.getByRole('heading', { name: 'Which city?', exact: true }) });
    t.regex((await city.locator('ul.bars li').first().innerText()).replace(/\s+/g, ' '), /^Berlin 3 · 100 %/);

    // A second condition, NPS at least 9, joined by any: Berlin or a promoter.
    await add.click();
    const questions = page.getByRole('combobox', { name: 'Question' });
    await questions.nth(1).selectOption({ label: 'Would you recommend us?' });
    await page.getByRole('combobox', { name: 'Test' }).nth(1).selectOption({ label: '≥ at least' });
    await page.getByRole('spinbutton', { name: 'Value' }).fill('9');
    await page.getByRole('spinbutton', { name: 'Value' }).press('Enter');
    await page.getByRole('spinbutton', { name: 'Value' }).blur();
    await t.notThrowsAsync(stat(page, 'Responses').filter({ hasText: /^2$/ }).waitFor(), 'all: Berlin and NPS 10');
    await page.getByRole('combobox', { name: 'Show responses that match' }).selectOption('any');
    await t.notThrowsAsync(stat(page, 'Responses').filter({ hasText: /^5$/ }).waitFor(), 'any: Berlin or a promoter');
    await page.getByRole('combobox', { name: 'Completion' }).selectOption({ label: 'Completed' });
    await t.notThrowsAsync(stat(page, 'Responses').filter({ hasText: /^4$/ }).waitFor(), 'completed only');
    t.deepEqual(await axeViolations(page), [], 'axe with two conditions');
    await shot(page, 'results-filters-1280');

    // The table follows, and a reload keeps everything.
    await page.getByRole('button', { name: /^Responses/ }).click();
    await page.locator('fl-results-table tbody tr').first().waitFor();
    await t.notThrowsAsync(page.waitForFunction(() => {
      const deep = (root: any): any[] => [...root.querySelectorAll('*')].flatMap((el: any) => (el.shadowRoot ? [el, ...deep(el.shadowRoot)] : [el]));
      return deep((globalThis as any).document).filter((el) => el.tagName === 'TR' && el.closest?.('tbody')).length === 4;
    }));
    t.regex(page.url(), /view=responses/);
    await page.reload();
    await page.locator('fl-results-table tbody tr').first().waitFor();
    t.is(await page.getByRole('combobox', { name: 'Question' }).count(), 2, 'the conditions come back from the URL');
    t.is(await page.getByRole('combobox', { name: 'Completion' }).inputValue(), 'true');
    t.deepEqual(await axeViolations(page), [], 'axe on the filtered table');

    // Version: only version 1 exists; Clear filters brings every response back.
    t.deepEqual(await page.getByRole('combobox', { name: 'Version' }).locator('option').allInnerTexts(), ['All versions', 'Version 1']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await t.notThrowsAsync(page.getByRole('button', { name: 'Responses (12)' }).waitFor());
    t.notRegex(page.url(), /filter=/);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }

  // At 390 px: the bar, a condition and the funnel fit without sideways scrolling.
  const phone = await openPage(browser, { cookie: owner.cookie, width: 390 });
  try {
    const filter = JSON.stringify({ match: 'all', conditions: [{ question_id: (await app.api('GET', `/forms/${form.id}`, { key: owner.key })).body.questions[1].id, op: 'greater_or_equal', value: 9 }] });
    await phone.page.goto(`${app.url}/forms/${form.id}/results?filter=${encodeURIComponent(filter)}`);
    await t.notThrowsAsync(stat(phone.page, 'Responses').filter({ hasText: /^4$/ }).waitFor(), 'NPS >= 9 from the URL');
    await phone.page.locator('ol.funnel li').first().waitFor();
    t.true(await phone.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 392), 'nothing scrolls sideways');
    t.deepEqual(await axeViolations(phone.page), [], 'axe at 390 px');
    await shot(phone.page, 'results-filters-390');
    t.deepEqual(phone.errors, []);
  } finally {
    await phone.close();
  }
});
