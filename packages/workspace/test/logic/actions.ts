import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import { type WorkspaceTestApp, serverHas as serverHasOn } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Variable actions of logic rules in the builder (docs/workspace.md, "Logic"): "Add to" a score without a
 * jump, made by the UI; a respondent's thank-you screen recalls the score their answers added up to.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const serverHas = (id: string, key: string, check: (form: any) => boolean) => serverHasOn(app, id, key, check);

test('a score made of "Add to" actions is recalled on the respondent\'s thank-you screen', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = (
    await app.api('POST', '/forms', {
      key: owner.key,
      body: {
        title: 'Green habits',
        variables: { score: 0 },
        thank_you_title: 'Your score: {var.score}',
        questions: [
          { type: 'yes_no', title: 'Do you recycle?' },
          { type: 'yes_no', title: 'Do you cycle to work?' },
          { type: 'short_text', title: 'Any tips?' },
        ],
      },
    })
  ).body;
  const ids = created.questions.map((q: any) => q.id);
  // The second question's rule through the API; the first's by the UI.
  t.is((await app.api('PUT', `/forms/${created.id}`, { key: owner.key, body: { questions: created.questions.map((q: any, i: number) => (i === 1 ? { ...q, logic_jumps: [{ conditions: [{ op: 'equals', value: true }], actions: [{ op: 'add', variable: 'score', value: 2 }] }] } : q)) } })).status, 200);
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.id}`);
    await page.getByLabel('Question 1', { exact: true }).waitFor();
    await page.getByText('Logic jumps', { exact: true }).click();
    await page.getByRole('button', { name: 'Add a jump' }).click();
    await page.getByRole('button', { name: 'Add an action' }).click();
    t.is(await page.getByRole('combobox', { name: 'Action 1 of jump 1: action' }).inputValue(), 'add');
    t.is(await page.getByRole('combobox', { name: 'Action 1 of jump 1: variable' }).inputValue(), 'score', 'the declared variable is offered first');
    await page.getByRole('spinbutton', { name: 'Action 1 of jump 1: number' }).fill('3');
    await page.getByRole('combobox', { name: 'Jump 1: then' }).selectOption({ label: 'Go on (no jump): only the actions' });
    const saved = await serverHas(created.id, owner.key, (f) => JSON.stringify(f.questions[0].logic_jumps) === JSON.stringify([{ conditions: [{ op: 'equals', value: true }], actions: [{ op: 'add', variable: 'score', value: 3 }] }]));
    t.is(saved.questions[0].logic_jumps[0].to, undefined, 'no jump');
    t.deepEqual(await axeViolations(page), [], 'axe on the actions');
    await shot(page, 'workspace-logic-actions');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }

  const slug = (await app.api('POST', `/forms/${created.id}/publish`, { key: owner.key })).body.slug;
  t.truthy(slug);
  const respondent = await openPage(browser, { width: 390 });
  try {
    await respondent.page.goto(`${app.url}/f/${slug}`);
    await respondent.page.getByRole('heading', { name: /Do you recycle\?/ }).waitFor();
    await respondent.page.getByText('Yes', { exact: true }).click();
    await respondent.page.getByRole('heading', { name: /Do you cycle to work\?/ }).waitFor();
    await respondent.page.getByText('Yes', { exact: true }).click();
    await respondent.page.getByRole('heading', { name: /Any tips\?/ }).waitFor();
    await respondent.page.getByRole('textbox').fill('Walk');
    await respondent.page.keyboard.press('Enter');
    await respondent.page.getByRole('heading', { name: 'Your score: 5' }).waitFor();
    t.deepEqual(respondent.errors, []);
  } finally {
    await respondent.close();
  }
  t.truthy(ids.length);
});
