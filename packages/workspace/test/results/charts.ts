import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Results > Summary's charts at scale (docs/workspace.md, "Results"): a 30-option dropdown as sorted HTML bars
 * with counts and percents (top 10, "20 more"), the NPS split and weekly trend, number statistics, the latest
 * texts with "See all", files, a card per group sub-question, yes/no as Yes/No; the responses table as cards at
 * 390 px; the empty state. FORMLOOM_SHOTS=<dir> also saves each state's screenshot there.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const CITIES = Array.from({ length: 30 }, (_, i) => `City ${String(i + 1).padStart(2, '0')}`);
const SCORES = [10, 9, 7, 3, 10];

/** A form of every chart kind; `n` responses: city k (1-30) is picked once up to 20, then k - 19 times. */
async function chartsForm(key: string, n: number) {
  const created = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Charts survey',
      published: true,
      questions: [
        { type: 'dropdown', title: 'Which city?', properties: { choices: CITIES.map((label) => ({ label })) } },
        { type: 'opinion_scale', title: 'Would you recommend us?' },
        { type: 'number', title: 'How many visits?' },
        { type: 'long_text', title: 'Tell us more' },
        { type: 'question_group', title: 'About your trip', properties: { questions: [{ id: 'from', type: 'dropdown', title: 'Travelling from' }, { id: 'nights', type: 'number', title: 'Nights' }] } },
        { type: 'file_upload', title: 'Your ticket' },
        { type: 'yes_no', title: 'First visit?' },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const form = created.body;
  const ids = form.questions.map((q: { id: string }) => q.id) as string[];
  const picks = CITIES.flatMap((c, k) => Array.from({ length: k < 20 ? 1 : k - 18 }, () => c));
  for (let i = 0; i < n; i++) {
    const answers = [
      { question_id: ids[0], value: picks[i % picks.length] },
      { question_id: ids[1], value: SCORES[i % 5] },
      { question_id: ids[2], value: i + 1 },
      { question_id: ids[3], value: `Note number ${i}` },
      { question_id: ids[4], value: { from: i % 3 ? 'Oslo' : 'Rome', nights: i % 4 } },
      ...(i === 0 ? [{ question_id: ids[5], value: { url: `${app.url}/api/v1/public/uploads/${form.id}/${'ab'.repeat(16)}/ticket.pdf`, name: 'ticket.pdf' } }] : []),
      { question_id: ids[6], value: i % 2 === 0 },
    ];
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  return form;
}

const card = (page: Page, title: string) => page.locator('section.qcard', { has: page.getByRole('heading', { name: title, exact: true }) });
const rows = async (section: ReturnType<typeof card>) => (await section.locator('ul.bars').first().locator('li').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());

test('many responses: sorted bars with counts and "20 more", NPS split and trend, number stats, latest texts, files, group sub-cards', async (t) => {
  t.timeout(400_000);
  const owner = await app.user('pro');
  const form = await chartsForm(owner.key, 85);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    const city = card(page, 'Which city?');
    await city.locator('ul.bars li').first().waitFor();
    const top = await rows(city);
    t.is(top.length, 10, 'the top 10');
    t.is(top[0], 'City 30 11 · 12.9 %', 'the most picked first, its count and percent beside it');
    t.deepEqual(top.map((r) => r.split(' ').slice(0, 2).join(' ')), ['City 30', 'City 29', 'City 28', 'City 27', 'City 26', 'City 25', 'City 24', 'City 23', 'City 22', 'City 21']);
    await city.getByRole('button', { name: '20 more' }).click();
    t.is((await rows(city)).length, 30, '"20 more" shows every choice');
    t.is((await rows(city))[29], 'City 20 1 · 1.2 %', 'ties keep the form order');
    await city.getByRole('button', { name: 'Show the top 10' }).waitFor();
    await city.getByText('Show the numbers').click();
    t.is(await city.getByRole('row', { name: /^City 30/ }).innerText().then((s) => s.replace(/\s+/g, ' ')), 'City 30 11 12.94 %');

    const nps = card(page, 'Would you recommend us?');
    const npsText = (await nps.innerText()).replace(/\s+/g, ' ');
    t.regex(npsText, /NPS 40/);
    t.regex(npsText, /Promoters \(9-10\): 60 % \(51\)/);
    t.regex(npsText, /Passives \(7-8\): 20 % \(17\)/);
    t.regex(npsText, /Detractors \(0-6\): 20 % \(17\)/);
    t.true(await nps.getByRole('heading', { name: 'NPS by week' }).isVisible());
    await nps.locator('canvas[data-chart^="trend-"]').waitFor();

    const visits = (await card(page, 'How many visits?').innerText()).replace(/\s+/g, ' ');
    t.regex(visits, /Min 1 Median 43 Mean 43 Max 85/);
    t.is((await rows(card(page, 'How many visits?'))).length, 10, 'a histogram of 10 bins');

    const more = card(page, 'Tell us more');
    t.true(await more.getByText('Note number 84').isVisible(), 'the newest text first');
    t.is(await more.locator('ul.latest li').count(), 5);

    const trip = card(page, 'About your trip');
    t.true(await trip.getByRole('heading', { name: 'Travelling from' }).isVisible(), 'a sub-card per sub-question');
    t.true(await trip.getByRole('heading', { name: 'Nights' }).isVisible());
    t.regex((await rows(trip))[0]!, /^Oslo 56 · 65\.9 %$/);
    t.true(await card(page, 'Your ticket').getByRole('link', { name: 'ticket.pdf' }).isVisible(), 'the uploaded file by name');
    t.deepEqual((await rows(card(page, 'First visit?'))).map((r) => r.split(' ')[0]), ['Yes', 'No'], 'yes/no as Yes and No');

    t.deepEqual(await axeViolations(page), [], 'axe on the summary');
    await shot(page, 'results-charts-many-desktop');
    await more.getByRole('button', { name: 'See all 85 answers' }).click();
    await page.getByRole('columnheader', { name: 'Tell us more' }).waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('at 390 px: the summary fits, the responses table is cards without sideways scroll; 5 responses and none', async (t) => {
  t.timeout(300_000);
  const owner = await app.user('pro');
  const form = await chartsForm(owner.key, 5);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 390 });
  const noSideways = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 392);
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await card(page, 'Which city?').locator('ul.bars li').first().waitFor();
    const five = await rows(card(page, 'Which city?'));
    t.deepEqual([five.length, five[0], five[5]], [10, 'City 01 1 · 20 %', 'City 06 0 · 0 %'], 'the picked cities, then those never picked');
    t.true(await noSideways(), 'the summary fits');
    t.deepEqual(await axeViolations(page), [], 'axe on the summary at 390 px');
    await shot(page, 'results-charts-5-390');
    await page.getByRole('button', { name: /^Responses/ }).click();
    await page.getByRole('cell', { name: 'Note number 4' }).waitFor();
    t.true(await noSideways(), 'no sideways scroll');
    const box = await page.getByRole('cell', { name: 'Note number 4' }).boundingBox();
    t.true(box !== null && box.x + box.width <= 390, 'the answers are inside the screen');
    t.deepEqual(await axeViolations(page), [], 'axe on the cards');
    await shot(page, 'results-table-cards-390');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }

  const empty = await chartsForm(owner.key, 0);
  const e = await openPage(browser, { cookie: owner.cookie, width: 390 });
  try {
    await e.page.goto(`${app.url}/forms/${empty.id}/results`);
    await e.page.getByText('No responses in this period.').waitFor();
    t.is(await e.page.getByText('No answers yet.').count(), 7, 'one line per question, no empty bars');
    t.is(await e.page.locator('ul.bars').count(), 0);
    t.deepEqual(await axeViolations(e.page), [], 'axe on the empty summary');
    await shot(e.page, 'results-charts-empty-390');
    t.deepEqual(e.errors, []);
  } finally {
    await e.close();
  }
});
