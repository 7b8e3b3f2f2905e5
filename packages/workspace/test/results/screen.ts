import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, tabTo, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The results screen (docs/workspace.md, "Results"): the summary's charts and their tables, new responses
 * without a reload, the responses table with its filters, detail and deletions; a viewer and a stranger;
 * a form deleted meanwhile. FORMLOOM_SHOTS=<dir> also saves each state's screenshot there.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

async function surveyWithResponses(key: string) {
  const created = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Customer survey',
      published: true,
      incremental_submission: true,
      questions: [
        { type: 'multiple_choice', title: 'Which fruit do you buy?', properties: { choices: [{ label: 'Apple' }, { label: 'Pear' }, { label: 'Plum' }], allow_multiple: true } },
        { type: 'yes_no', title: 'Would you come back?' },
        { type: 'opinion_scale', title: 'How likely are you to recommend us?' },
        { type: 'number', title: 'How many per week?' },
        { type: 'contact_info', title: 'Contact', properties: { fields: ['first_name', 'email'] } },
        { type: 'short_text', title: 'Anything else?' },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const form = created.body;
  const ids = form.questions.map((q: { id: string }) => q.id) as string[];
  const submit = async (values: unknown[], completed = true) => {
    const answers = values.map((value, i) => ({ question_id: ids[i]!, value })).filter((a) => a.value !== undefined);
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, ...(completed ? {} : { completed: false }) } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  };
  await submit([['Apple', 'Pear'], true, 10, 3, { first_name: 'Ada', email: 'ada@example.com' }, 'Lovely shop']);
  await submit([['Apple'], true, 9, 5, { first_name: 'Grace', email: 'grace@example.com' }, 'More plums please']);
  await submit([['Plum'], false, 4, 12, { first_name: 'Alan', email: 'alan@example.com' }, undefined]);
  await submit([['Pear'], undefined, undefined, undefined, undefined, undefined], false);
  return { form, submit };
}

test('an owner reads the summary, sees a new response arrive, and works the responses table', async (t) => {
  t.timeout(300_000);
  const owner = await app.user('pro');
  const { form, submit } = await surveyWithResponses(owner.key);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    // The page's timers on a clock the test moves (time still flows by itself): its 10 s poll is reached by
    // moving the clock, not by waiting for it.
    await page.clock.install();
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await page.getByRole('heading', { name: 'Responses per day' }).waitFor();
    await page.locator('canvas[data-chart="by-day"]').waitFor();
    t.true(await page.getByRole('heading', { name: 'Would you come back?' }).isVisible());
    // Each chart's text alternative: the numbers in a table.
    const fruit = page.locator('section', { has: page.getByRole('heading', { name: 'Which fruit do you buy?' }) });
    await fruit.getByText('Show the numbers').click();
    t.is(await fruit.getByRole('row', { name: /^Apple/ }).innerText().then((s) => s.replace(/\s+/g, ' ')), 'Apple 2 50 %');
    t.true(await page.getByText('NPS 33').isVisible());
    const nps = page.locator('section', { has: page.getByRole('heading', { name: 'How likely are you to recommend us?' }) });
    t.regex(await nps.innerText(), /NPS\s*33/);
    t.true(await page.getByText('More plums please').isVisible(), 'the latest text answers');
    t.deepEqual(await axeViolations(page), [], 'axe on the summary');
    await shot(page, 'results-summary-desktop');

    // A response stored meanwhile (by any instance) shows up without a reload.
    await submit([['Pear'], true, 10, 1, { first_name: 'Edsger', email: 'e@example.com' }, 'Fresh one']);
    await page.clock.fastForward(10_000);
    await page.getByRole('status').filter({ hasText: '1 new response' }).waitFor({ timeout: 60_000 });
    t.true(await page.getByText('Fresh one').isVisible());

    await page.getByRole('button', { name: /^Responses/ }).click();
    await page.getByRole('columnheader', { name: 'Contact' }).waitFor();
    t.true(await page.getByRole('columnheader', { name: 'Email' }).isVisible(), 'a group question has sub-columns');
    await page.getByRole('cell', { name: 'e@example.com', exact: true }).waitFor();
    t.is(await page.getByRole('row').filter({ has: page.getByRole('checkbox') }).count(), 5, 'newest first, every response');
    t.deepEqual(await axeViolations(page), [], 'axe on the table');
    await shot(page, 'results-table-desktop');

    await page.getByLabel('Completion').selectOption('false');
    await page.getByText('1 response · page 1 of 1').waitFor();
    t.true(await page.getByRole('cell', { name: 'Pear', exact: true }).isVisible(), 'the partial one');
    await page.getByLabel('Completion').selectOption('');
    await page.getByText('5 responses · page 1 of 1').waitFor();

    // The detail beside the table, then deletion with confirmation.
    await page.getByRole('row', { name: /Ada/ }).getByRole('button').first().click();
    const detail = page.getByRole('complementary');
    await detail.getByText('Lovely shop').waitFor();
    t.true(await detail.getByText('ada@example.com').isVisible());
    t.deepEqual(await axeViolations(page), [], 'axe with the detail open');
    await shot(page, 'results-detail-desktop');
    await detail.getByRole('button', { name: 'Delete response' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete response' }).click();
    await page.getByText('4 responses · page 1 of 1').waitFor();
    t.false(await page.getByRole('cell', { name: 'ada@example.com', exact: true }).isVisible());

    await page.getByRole('checkbox').nth(0).check();
    await page.getByRole('checkbox').nth(1).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    t.is((await app.api('GET', `/forms/${form.id}/responses`, { key: owner.key })).body.total, 4, 'cancel deletes nothing');
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete 2 responses' }).click();
    await page.getByText('2 responses · page 1 of 1').waitFor();
    t.is((await app.api('GET', `/forms/${form.id}/responses`, { key: owner.key })).body.total, 2);

    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    t.is(csv, `/api/v1/forms/${form.id}/responses/export`);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the responses table searches the answers, pages by cursor, and downloads the CSV of its filter', async (t) => {
  t.timeout(300_000);
  const owner = await app.user('pro');
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Many', published: true, incremental_submission: true, questions: [{ type: 'short_text', title: 'Name' }] },
  });
  const form = created.body;
  // 60 responses, one after another so the order is theirs; every 10th mentions the needle, every 20th is partial.
  for (let i = 1; i <= 60; i++) {
    const body = { answers: [{ question_id: form.questions[0].id, value: i % 10 === 0 ? `Person ${i} found the NeEdLe` : `Person ${i}` }], ...(i % 20 === 0 ? { completed: false } : {}) };
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await page.getByRole('button', { name: /^Responses/ }).click();
    await page.getByText('60 responses · page 1 of 3').waitFor();
    const names = () => page.locator('tbody tr td:last-child').allInnerTexts();
    t.is((await names())[0], 'Person 60 found the NeEdLe', 'newest first');
    const older = page.getByRole('button', { name: 'Older' });
    const newer = page.getByRole('button', { name: 'Newer' });
    t.true(await newer.isDisabled());
    await older.click();
    await page.getByText('60 responses · page 2 of 3').waitFor();
    t.is((await names())[0], 'Person 35');
    await older.click();
    await page.getByText('60 responses · page 3 of 3').waitFor();
    t.deepEqual(await names(), Array.from({ length: 10 }, (_, i) => `Person ${10 - i}${i === 0 ? ' found the NeEdLe' : ''}`));
    t.true(await older.isDisabled(), 'no page after the last');
    await newer.click();
    await page.getByText('60 responses · page 2 of 3').waitFor();
    t.is((await names())[0], 'Person 35');

    // Typing searches once it pauses, from the first page; the CSV link follows the filters.
    await page.getByLabel('Search answers').fill('needle');
    await page.getByText('6 responses · page 1 of 1').waitFor();
    t.deepEqual(await names(), [60, 50, 40, 30, 20, 10].map((i) => `Person ${i} found the NeEdLe`));
    await page.getByLabel('Completion').selectOption('true');
    await page.getByText('3 responses · page 1 of 1').waitFor();
    t.deepEqual(await names(), [50, 30, 10].map((i) => `Person ${i} found the NeEdLe`));
    t.deepEqual(await axeViolations(page), [], 'axe with a search');
    await shot(page, 'results-search-desktop');
    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    t.is(href, `/api/v1/forms/${form.id}/responses/export?completed=true&search=needle`);
    const csv = await page.evaluate(async (url) => (await fetch(url)).text(), href!);
    const lines = csv.split('\r\n').filter(Boolean);
    t.is(lines.length, 4, 'the header and the 3 responses the table shows');
    t.true(lines.slice(1).every((l) => /NeEdLe/.test(l)));
    // XLSX and JSON beside it follow the same filters (docs/responses-and-webhooks.md, "Export formats").
    const xlsx = await page.getByRole('link', { name: 'Download XLSX' }).getAttribute('href');
    t.is(xlsx, `/api/v1/forms/${form.id}/responses/export?completed=true&search=needle&format=xlsx`);
    const xlsxBytes = await page.evaluate(async (url) => [...new Uint8Array(await (await fetch(url)).arrayBuffer()).slice(0, 2)], xlsx!);
    t.deepEqual(xlsxBytes, [0x50, 0x4b], 'a zip (XLSX) the session may download');
    const jsonHref = await page.getByRole('link', { name: 'Download JSON' }).getAttribute('href');
    t.is(jsonHref, `/api/v1/forms/${form.id}/responses/export?completed=true&search=needle&format=json`);
    const exported = (await page.evaluate(async (url) => (await fetch(url)).json(), jsonHref!)) as Array<{ answers: Array<{ label: string }> }>;
    t.deepEqual(exported.map((r) => r.answers[0]!.label).sort(), [10, 30, 50].map((i) => `Person ${i} found the NeEdLe`));
    await page.getByLabel('Search answers').fill('nobody says this');
    await page.getByText('No responses match these filters.').waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('at 390 px by keyboard: the summary and the table fit, the view switch and a response open by keys', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('pro');
  const { form } = await surveyWithResponses(owner.key);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 390 });
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await page.locator('canvas[data-chart="by-day"]').waitFor();
    t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 392), 'no sideways scroll');
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'results-summary-390');
    await tabTo(page, (el) => el.tag === 'button' && el.text.startsWith('Responses'));
    await page.keyboard.press('Enter');
    await page.getByRole('columnheader', { name: 'Contact' }).waitFor();
    await shot(page, 'results-table-390');
    await tabTo(page, (el) => el.tag === 'button' && el.text.includes('Completed') === false && /\d{1,2}:\d{2}/.test(el.text));
    await page.keyboard.press('Enter');
    await page.getByRole('complementary').getByRole('heading', { name: 'Response' }).waitFor();
    t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 392), 'the table scrolls inside its box');
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'results-detail-390');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a viewer reads results without delete controls; a stranger gets a clear 403; a deleted form says so', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('enterprise');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Acme' } })).body;
  const viewer = await app.user();
  const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: viewer.email, role: 'viewer' } });
  t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: viewer.key })).status, 200);
  const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Team survey', team_id: team.id, published: true, questions: [{ type: 'yes_no', title: 'Good?' }] } });
  t.is(created.status, 201, JSON.stringify(created.body));
  const form = created.body;
  await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: true }] } });

  const v = await openPage(browser, { cookie: viewer.cookie });
  try {
    await v.page.goto(`${app.url}/forms/${form.id}/results`);
    await v.page.getByRole('heading', { name: 'Responses per day' }).waitFor();
    await v.page.getByRole('button', { name: /^Responses/ }).click();
    await v.page.getByRole('cell', { name: 'Yes', exact: true }).waitFor();
    t.is(await v.page.getByRole('checkbox').count(), 0, 'no selection for deletion');
    await v.page.getByRole('row', { name: /Yes/ }).getByRole('button').first().click();
    await v.page.getByRole('complementary').waitFor();
    t.is(await v.page.getByRole('button', { name: /Delete/ }).count(), 0, 'no delete button');
  } finally {
    await v.close();
  }

  const stranger = await app.user();
  const personal = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Private', questions: [{ type: 'yes_no', title: 'Ok?' }] } })).body;
  const s = await openPage(browser, { cookie: stranger.cookie });
  try {
    await s.page.goto(`${app.url}/forms/${personal.id}/results`);
    await s.page.getByRole('alert').getByText(/do not have access/).waitFor();
    t.deepEqual(await axeViolations(s.page), []);
    await shot(s.page, 'results-forbidden-desktop');
  } finally {
    await s.close();
  }

  // Open in one tab, deleted in another: the next refresh says the form is gone.
  const o = await openPage(browser, { cookie: owner.cookie });
  try {
    await o.page.goto(`${app.url}/forms/${form.id}/results`);
    await o.page.getByRole('heading', { name: 'Responses per day' }).waitFor();
    t.is((await app.api('DELETE', `/forms/${form.id}`, { key: owner.key })).status, 200);
    await o.page.getByLabel('From').fill('2020-01-01');
    await o.page.getByRole('alert').getByText(/does not exist any more/).waitFor();
    await shot(o.page, 'results-deleted-desktop');
  } finally {
    await o.close();
  }
});
