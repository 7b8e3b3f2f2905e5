import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { type WorkspaceTestApp, serverHas as serverHasOn } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Logic in the builder (docs/workspace.md, "Logic"): the tests offered per kind of answer, a jump followed by a
 * respondent, the logic map and its way back to a question, the warning before a move that changes a jump.
 * Screenshots at 390 and 1440 px go to $FORMLOOM_SHOTS when it is set.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

/** Waits until the server holds what `check` wants (the page may say "saved" as the request lands). */
const serverHas = (id: string, key: string, check: (form: any) => boolean) => serverHasOn(app, id, key, check);

const QUESTIONS = [
  { type: 'yes_no', title: 'Do you own a pet?' },
  { type: 'short_text', title: 'What is its name?' },
  { type: 'number', title: 'How many pets live with you?' },
  { type: 'dropdown', title: 'Favourite colour', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Green' }] } },
  { type: 'date', title: 'When did you adopt?' },
  { type: 'short_text', title: 'Anything else?' },
];

async function newForm(key: string, extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', '/forms', { key, body: { title: 'Pets', questions: QUESTIONS, ...extra } });
  return res.body;
}

/** The labels of the "Test" list of the first condition of the open logic editor. */
async function offered(page: Page): Promise<string[]> {
  return page.getByRole('combobox', { name: /^Test/ }).first().locator('option').allTextContents();
}

test('the tests offered follow the answer kind; a jump made in the builder is followed by a respondent', async (t) => {
  t.timeout(300_000);
  const owner = await app.user();
  const form = await newForm(owner.key);
  const ids = form.questions.map((q: any) => q.id);
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${form.id}`);
    await page.getByLabel('Question 1', { exact: true }).waitFor();
    await page.getByText('Logic jumps', { exact: true }).click();
    await page.getByRole('button', { name: 'Add a jump' }).click();
    t.deepEqual(await offered(page), ['is', 'is not'], 'a yes/no answer is only "is" or "is not"');
    await page.getByRole('combobox', { name: 'Condition 1 of jump 1: answer' }).selectOption({ label: 'No' });
    await page.getByRole('combobox', { name: 'Jump 1: then' }).selectOption({ label: 'Go to Anything else?' });
    await saved(page);
    await serverHas(form.id, owner.key, (f) => JSON.stringify(f.questions[0].logic_jumps) === JSON.stringify([{ conditions: [{ op: 'equals', value: false }], to: ids[5] }]));

    // A second condition on an earlier answer of another kind: its tests follow that kind; joined by any.
    await page.getByRole('button', { name: 'Add a condition' }).click();
    t.deepEqual(await page.getByRole('combobox', { name: /^Test/ }).nth(1).locator('option').allTextContents(), ['is', 'is not']);
    await page.getByRole('combobox', { name: 'Jump 1: conditions joined by' }).selectOption({ label: 'any (one is enough)' });
    await page.getByRole('button', { name: 'Remove condition 2 of jump 1' }).click();
    await saved(page);

    const kinds: Array<[RegExp, string[]]> = [
      [/What is its name\?/, ['contains', 'does not contain', 'is', 'is empty', 'is not empty']],
      [/How many pets/, ['= equals', '≠ does not equal', '< is less than', '> is greater than', 'is between']],
      [/Favourite colour/, ['is', 'is not', 'is any of']],
      [/When did you adopt/, ['is before', 'is after', 'is between']],
    ];
    for (const [title, ops] of kinds) {
      await page.getByRole('button', { name: title }).first().click();
      const logic = page.getByText('Logic jumps', { exact: true });
      await logic.click();
      await page.getByRole('button', { name: 'Add a jump' }).click();
      t.deepEqual(await offered(page), ops, String(title));
      if (String(title).includes('How many')) {
        await page.getByRole('combobox', { name: /^Test/ }).first().selectOption({ label: 'is between' });
        await page.getByRole('spinbutton', { name: 'Condition 1 of jump 1: from' }).fill('2');
        await page.getByRole('spinbutton', { name: 'Condition 1 of jump 1: to' }).fill('4');
      } else if (String(title).includes('colour')) {
        await page.getByRole('combobox', { name: /^Test/ }).first().selectOption({ label: 'is any of' });
        await page.getByRole('group', { name: 'Condition 1 of jump 1: any of these' }).getByLabel('Blue').check();
      } else {
        await page.getByRole('button', { name: 'Remove jump 1' }).click();
      }
    }
    await saved(page);
    const stored = await serverHas(form.id, owner.key, (f) => f.questions[2].logic_jumps.length === 1 && f.questions[3].logic_jumps.length === 1);
    t.deepEqual(stored.questions[2].logic_jumps[0].conditions, [{ op: 'between', value: [2, 4] }]);
    t.deepEqual(stored.questions[3].logic_jumps[0].conditions, [{ op: 'is_any_of', value: ['Red', 'Blue'] }]);
    t.deepEqual(await axeViolations(page), [], 'axe on the logic editor');
    await shot(page, 'workspace-logic');

    // A respondent who answers No is taken straight to "Anything else?".
    const slug = (await app.api('POST', `/forms/${form.id}/publish`, { key: owner.key })).body.slug;
    const respondent = await openPage(browser, { width: 390 });
    try {
      await respondent.page.goto(`${app.url}/f/${slug}`);
      await respondent.page.getByRole('heading', { name: /Do you own a pet\?/ }).waitFor();
      await respondent.page.getByText('No', { exact: true }).click();
      await respondent.page.getByRole('heading', { name: /Anything else\?/ }).waitFor();
      t.is(await respondent.page.getByRole('heading', { name: /What is its name\?/ }).count(), 0, 'the skipped question is not shown');
      t.deepEqual(respondent.errors, []);
    } finally {
      await respondent.close();
    }
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('at 390 px the logic editor fits its card and the page does not scroll sideways', async (t) => {
  t.timeout(180_000);
  const owner = await app.user();
  const created = await newForm(owner.key);
  const ids = created.questions.map((q: any) => q.id);
  const questions = created.questions.map((q: any, i: number) => (i === 2 ? { ...q, logic_jumps: [{ match: 'any', conditions: [{ op: 'between', value: [1, 3] }, { field: ids[0], op: 'equals', value: true }], to: ids[5] }] } : q));
  t.is((await app.api('PUT', `/forms/${created.id}`, { key: owner.key, body: { questions } })).status, 200);
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.id}`);
    await page.getByRole('button', { name: /How many pets/ }).first().click();
    await page.getByRole('group', { name: 'Jump 1', exact: true }).waitFor();
    const spill = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const find = (root: any, sel: string): any => root.querySelector(sel) ?? [...root.querySelectorAll('*')].map((e: any) => e.shadowRoot && find(e.shadowRoot, sel)).find(Boolean);
      const editor = find(doc, 'fl-logic-editor');
      const out: string[] = [];
      for (const card of editor.shadowRoot.querySelectorAll('.jump')) {
        const box = card.getBoundingClientRect();
        for (const el of card.querySelectorAll('select, input, button, label')) {
          const r = el.getBoundingClientRect();
          if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 30)}`);
        }
        const rows = [...card.querySelectorAll('.cond > *')].map((e: any) => e.getBoundingClientRect());
        rows.forEach((a: any, i: number) => rows.slice(i + 1).forEach((b: any) => {
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push('overlap');
        }));
      }
      return { out, scroll: doc.scrollingElement.scrollWidth };
    });
    t.deepEqual(spill.out, [], 'nothing spills out of a jump card or overlaps');
    t.true(spill.scroll <= 390, `scrollWidth ${spill.scroll}`);
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'workspace-logic-phone');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the logic map draws the jumps, tells them in words, and opens a question when pressed', async (t) => {
  t.timeout(180_000);
  const owner = await app.user();
  const created = await newForm(owner.key);
  const ids = created.questions.map((q: any) => q.id);
  const questions = created.questions.map((q: any, i: number) =>
    i === 0 ? { ...q, logic_jumps: [{ conditions: [{ op: 'equals', value: false }], to: ids[5] }] } : i === 2 ? { ...q, logic_jumps: [{ to: 'end' }] } : q,
  );
  t.is((await app.api('PUT', `/forms/${created.id}`, { key: owner.key, body: { questions } })).status, 200);
  for (const width of [1440, 390]) {
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${created.id}`);
      await page.getByLabel('Question 1', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Show the logic map' }).click();
      const map = page.getByRole('dialog', { name: 'Logic map' });
      const list = map.getByRole('list', { name: 'Questions and their jumps' });
      await list.waitFor();
      t.is(await list.getByRole('listitem').count(), 7, 'six questions and the thank-you screen');
      await list.getByRole('button', { name: /Q1 · Do you own a pet\?.*If the answer is No: Q6; otherwise Q2/ }).waitFor();
      await list.getByRole('button', { name: /Q3 · How many pets.*Always: the thank-you screen/ }).waitFor();
      t.is(await map.locator('svg path.arc').count(), 2, 'one arc per jump');
      t.deepEqual(await axeViolations(page), [], `axe on the map at ${width}`);
      await shot(page, width === 390 ? 'workspace-logic-map-phone' : 'workspace-logic-map');
      await list.getByRole('button', { name: /Q3 · How many pets/ }).click();
      await map.waitFor({ state: 'hidden' });
      t.is(await page.getByLabel('Question 3', { exact: true }).inputValue(), 'How many pets live with you?', 'the question opens in the editor');
      await page.getByRole('combobox', { name: 'Jump 1: then' }).waitFor();
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('a move that changes what a jump skips warns; the owner keeps the target or cancels', async (t) => {
  t.timeout(180_000);
  const owner = await app.user();
  const created = await newForm(owner.key);
  const ids = created.questions.map((q: any) => q.id);
  // Q3 jumps to Q5 over Q4.
  const questions = created.questions.map((q: any, i: number) => (i === 2 ? { ...q, logic_jumps: [{ conditions: [{ op: 'greater_than', value: 3 }], to: ids[4] }] } : q));
  t.is((await app.api('PUT', `/forms/${created.id}`, { key: owner.key, body: { questions } })).status, 200);
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.id}`);
    await page.getByLabel('Question 1', { exact: true }).waitFor();
    // Q2 moved below Q3 now sits inside the stretch the jump skips.
    await page.getByRole('button', { name: 'Move question 2 down' }).click();
    const dialog = page.getByRole('dialog', { name: 'This move changes where jumps go' });
    await dialog.getByText('The jump from Q3 “How many pets live with you?” to Q5 “When did you adopt?” would skip Q2 “What is its name?” too.').waitFor();
    t.deepEqual(await axeViolations(page), [], 'axe on the warning');
    await dialog.getByRole('button', { name: "Don't move" }).click();
    await dialog.waitFor({ state: 'detached' });
    t.deepEqual((await app.api('GET', `/forms/${created.id}`, { key: owner.key })).body.questions.map((q: any) => q.id), ids, 'cancelled: the order is unchanged');

    // Q5 moved above Q4: the jump no longer skips Q4; the owner keeps the target.
    await page.getByRole('button', { name: 'Move question 5 up' }).click();
    await dialog.getByText('The jump from Q3 “How many pets live with you?” to Q5 “When did you adopt?” would no longer skip Q4 “Favourite colour”.').waitFor();
    await dialog.getByRole('button', { name: 'Move and keep the targets' }).click();
    await dialog.waitFor({ state: 'detached' });
    await saved(page);
    const moved = await serverHas(created.id, owner.key, (f) => f.questions[3].id === ids[4]);
    t.deepEqual(moved.questions[2].logic_jumps[0].to, ids[4], 'the jump keeps its target');
    // Once more, above Q3: the jump would point backwards.
    await page.getByRole('button', { name: 'Move question 4 up' }).click();
    await dialog.getByText('The jump from Q3 “How many pets live with you?” to Q4 “When did you adopt?” would point backwards, and the form cannot be saved until it gets a new target.').waitFor();
    await shot(page, 'workspace-logic-reorder');
    await dialog.getByRole('button', { name: "Don't move" }).click();
    await dialog.waitFor({ state: 'detached' });
    // A move with no jump involved asks nothing.
    await page.getByRole('button', { name: 'Move question 6 up' }).click();
    await serverHas(created.id, owner.key, (f) => f.questions[4].id === ids[5]);
    t.is(await dialog.count(), 0);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
