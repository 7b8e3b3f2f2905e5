import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { type WorkspaceTestApp, serverHas as serverHasOn } from '../helpers/app';
import { axeViolations, openPage, withClipboard } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Choices typed like a list (docs/workspace.md, "Choices"): 30 pasted lines make 30 choices, Enter adds the
 * next and Backspace removes an empty one, Alt+Arrow and the drag handle reorder, "Edit as text" replaces
 * them all, "Other" is the API's `allow_other`; and the builder never scrolls sideways at 390 px. Enter in a
 * choice question's title goes to its first choice, and Enter into a placeholder ("Option 2") types over it.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
const serverHas = (id: string, key: string, check: (form: any) => boolean) => serverHasOn(app, id, key, check);
/** A screenshot of the screen as shown, into $FORMLOOM_SHOTS when it is set (docs/images). */
async function shot(page: Page, name: string) {
  const dir = process.env.FORMLOOM_SHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}
const labels = (form: any): string[] => form.questions[0].properties.choices.map((c: any) => c.label);
const choiceInputs = (page: Page) => page.locator('fl-choice-list input.choice');
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    let a: any = (globalThis as any).document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return (a?.labels?.[0]?.textContent ?? a?.getAttribute('aria-label') ?? '').trim().replace(/\s+/g, ' ');
  });

for (const width of [390, 1440]) {
  test(`at ${width} px: paste 30 lines, Enter and Backspace, reorder, edit as text, "Other"`, async (t) => {
    t.timeout(240_000);
    const owner = await app.user();
    const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Choices', questions: [{ type: 'multiple_choice', title: 'Pick a colour', properties: { choices: [{ label: 'Option 1' }, { label: 'Option 2' }] } }] } })).body.id;
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${id}`);
      await choiceInputs(page).nth(1).waitFor();
      t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'no sideways scrolling');
      t.deepEqual(await axeViolations(page), []);

      // 30 lines pasted into the first choice: one choice each, in one step, in place of the placeholder "Option 2".
      const lines = Array.from({ length: 30 }, (_x, i) => `Colour ${i + 1}`);
      // The clipboard is the browser's: held from the copy to the paste (helpers/browser.ts).
      await withClipboard(async () => {
        await page.evaluate((text) => (globalThis as any).navigator.clipboard.writeText(text), `${lines.join('\n')}\n`);
        await choiceInputs(page).first().selectText();
        await page.keyboard.press('ControlOrMeta+v');
        await choiceInputs(page).nth(29).waitFor();
      });
      t.is(await choiceInputs(page).count(), 30);
      t.is(await focusedLabel(page), 'Choice 30', 'the caret is in the last pasted choice');
      await page.locator('fl-choice-list').scrollIntoViewIfNeeded();
      await shot(page, width < 500 ? 'workspace-choices-phone' : 'workspace-choices');
      await saved(page);
      let form = await serverHas(id, owner.key, (f) => labels(f).length === 30 && labels(f)[0] === 'Colour 1');
      t.deepEqual(labels(form), lines);

      // Backspace empties nothing but an empty choice; Enter adds the next choice and moves to it.
      await choiceInputs(page).nth(29).focus();
      await page.keyboard.press('Enter');
      await choiceInputs(page).nth(30).waitFor();
      t.is(await focusedLabel(page), 'Choice 31');
      await page.keyboard.press('Backspace');
      await choiceInputs(page).nth(30).waitFor({ state: 'detached' });
      t.is(await focusedLabel(page), 'Choice 30', 'back in the choice before');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Other blue');
      await saved(page);
      t.is(await page.getByText('Not saved').count(), 0, 'an empty choice is no failed save');
      await serverHas(id, owner.key, (f) => labels(f).at(-1) === 'Other blue' && labels(f).length === 31);

      // Alt+ArrowUp moves it up, the caret stays in it.
      await page.keyboard.press('Alt+ArrowUp');
      await page.getByRole('status').filter({ hasText: 'Choice “Other blue” moved to position 30 of 31.' }).waitFor();
      t.is(await focusedLabel(page), 'Choice 30');
      await saved(page);
      form = await serverHas(id, owner.key, (f) => labels(f)[29] === 'Other blue');

      // Drag the first choice below the second by its handle.
      const rows = page.locator('fl-choice-list li');
      await rows.nth(0).locator('.handle').dragTo(rows.nth(1), { targetPosition: { x: 10, y: 30 } });
      await page.getByRole('status').filter({ hasText: 'Choice “Colour 1” moved to position 2 of 31.' }).waitFor();
      await saved(page);
      form = await serverHas(id, owner.key, (f) => labels(f)[1] === 'Colour 1');
      t.is(labels(form)[0], 'Colour 2');

      // Edit as text: one choice per line; a kept line keeps its choice.
      await page.getByRole('button', { name: 'Edit as text' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the choices as text' });
      const text = dialog.getByRole('textbox', { name: 'One choice per line' });
      t.is((await text.inputValue()).split('\n').length, 31);
      if (width > 500) await shot(page, 'workspace-choices-text');
      t.deepEqual(await axeViolations(page), []);
      await text.fill('Red\n\nGreen\nColour 2\n');
      await dialog.getByRole('button', { name: 'Save choices' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await saved(page);
      form = await serverHas(id, owner.key, (f) => labels(f).length === 3);
      t.deepEqual(labels(form), ['Red', 'Green', 'Colour 2']);

      // "Other" with a text field is the API's allow_other.
      await page.getByLabel('Offer “Other” with a text field').check();
      await saved(page);
      await serverHas(id, owner.key, (f) => f.questions[0].properties.allow_other === true);
      t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'no sideways scrolling');
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('Enter in the title goes to the first choice; Enter moves into a placeholder choice to type over it', async (t) => {
  t.timeout(120_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Enter', questions: [{ type: 'multiple_choice', title: 'Pick one', properties: { choices: [{ label: 'Option 1' }, { label: 'Option 2' }] } }] } })).body.id;
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    await page.getByLabel('Question 1', { exact: true }).click();
    await page.keyboard.press('Enter');
    t.is(await focusedLabel(page), 'Choice 1');
    await page.keyboard.type('Teal');
    await page.keyboard.press('Enter');
    t.is(await focusedLabel(page), 'Choice 2', 'into the placeholder, not a new choice before it');
    t.is(await choiceInputs(page).count(), 2);
    await page.keyboard.type('Navy');
    await page.keyboard.press('Enter');
    await choiceInputs(page).nth(2).waitFor();
    t.is(await focusedLabel(page), 'Choice 3', 'after a real choice, Enter adds one');
    await page.keyboard.type('Plum');
    await saved(page);
    t.deepEqual(labels(await serverHas(id, owner.key, (f) => labels(f).length === 3 && labels(f)[2] === 'Plum')), ['Teal', 'Navy', 'Plum']);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
