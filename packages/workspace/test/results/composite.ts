import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * A composite's results are one table (docs/logic.md "Composite"): the responses table shows the composite's own
 * questions and, under the composite's header, one column per question of each component, filled from the one
 * response the respondent sent. RESULTS_SHOTS=<dir> writes screenshots at 390 and 1280 px.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

test('the responses table shows a composite as one table: its components’ questions as columns', async (t) => {
  t.timeout(180_000);
  const owner = await app.user();
  const make = async (body: Record<string, unknown>) => {
    const r = await app.api('POST', '/forms', { key: owner.key, body: { published: true, ...body } });
    t.true(r.body.published, JSON.stringify(r.body));
    return r.body;
  };
  const about = await make({ title: 'About you', questions: [{ type: 'short_text', title: 'City' }, { type: 'yes_no', title: 'Do you drive?' }] });
  const visit = await make({ title: 'Your visit', questions: [{ type: 'rating', title: 'Stars', properties: { steps: 5 } }] });
  const form = await make({
    title: 'Onboarding',
    questions: [{ type: 'short_text', title: 'Name' }, { type: 'composite', title: 'Both forms', properties: { composite_ids: [about.id, visit.id] } }],
  });
  const value = { [`${about.id}/${about.questions[0].id}`]: 'Lyon', [`${about.id}/${about.questions[1].id}`]: true, [`${visit.id}/${visit.questions[0].id}`]: 5 };
  const sent = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: 'Ada' }, { question_id: form.questions[1].id, value }] } });
  t.is(sent.status, 201, JSON.stringify(sent.body));

  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 1280 });
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await page.getByRole('button', { name: /^Responses/ }).click();
    const table = page.getByRole('table');
    await table.getByRole('columnheader', { name: 'Both forms' }).waitFor();
    for (const name of ['About you: City', 'About you: Do you drive?', 'Your visit: Stars']) await table.getByRole('columnheader', { name }).waitFor();
    const row = page.getByRole('row', { name: /Ada/ });
    t.regex(await row.innerText(), /Ada[\s\S]*Lyon[\s\S]*Yes[\s\S]*5/);
    t.deepEqual(await axeViolations(page), []);
    const dir = process.env.RESULTS_SHOTS;
    if (dir) {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: `${dir}/composite-results-${width}.png`, fullPage: true });
      }
    }
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
