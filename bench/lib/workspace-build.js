'use strict';
// The reference form of issue 36's budget (docs/benchmarks.md, "workspace"): an ordinary 12-question feedback
// form built the way an owner would build it in the workspace, in a real browser, every click and keystroke
// counted. Texts the owner types (titles, choices) are counted apart: the budget is about the builder's own
// steps, not about how long the questions are. Used by bench/scenarios/workspace.js.
const { monoMs } = require('./stats');

const COUNTRIES = [
  'Argentina', 'Australia', 'Austria', 'Belgium', 'Brazil', 'Canada', 'Chile', 'Denmark', 'Egypt', 'Finland',
  'France', 'Germany', 'Greece', 'India', 'Ireland', 'Italy', 'Japan', 'Kenya', 'Mexico', 'Netherlands',
  'New Zealand', 'Nigeria', 'Norway', 'Poland', 'Portugal', 'South Africa', 'Spain', 'Sweden', 'United Kingdom', 'United States',
];

/**
 * The owner's hands: every click and key press goes through here and is counted. A chord (Ctrl+V) is one
 * keystroke; `type` is text the owner writes, counted as typed characters, not as keystrokes of the budget.
 */
class Hands {
  constructor(page) {
    this.page = page;
    this.clicks = 0;
    this.keys = 0;
    this.typed = 0;
    this.steps = [];
  }

  /** Marks where the counts stand at the start of a part of the form (printed per part). */
  part(name) {
    this.steps.push({ name, clicks: this.clicks, keys: this.keys, typed: this.typed });
  }

  async click(locator) {
    await locator.click();
    this.clicks += 1;
  }

  async press(key, times = 1) {
    for (let i = 0; i < times; i++) {
      await this.page.keyboard.press(key);
      this.keys += 1;
    }
  }

  async type(text) {
    await this.page.keyboard.type(text);
    this.typed += [...text].length;
  }

  /** Counts per part: the difference between one mark and the next. */
  parts() {
    const marks = [...this.steps, { name: 'end', clicks: this.clicks, keys: this.keys, typed: this.typed }];
    return marks.slice(0, -1).map((m, i) => ({ part: m.name, clicks: marks[i + 1].clicks - m.clicks, keys: marks[i + 1].keys - m.keys, typed: marks[i + 1].typed - m.typed }));
  }
}

/**
 * The questions in order: kind (as the "New question" list names it), title, and what the owner does beyond
 * the title. `@name` in a title is a recall, made with the `@` menu.
 */
const QUESTIONS = [
  { kind: 'Short text', title: 'What is your name?', required: true },
  { kind: 'Email', title: 'Your email address' },
  { kind: 'Rating', title: 'How would you rate your visit, @name?', required: true },
  { kind: 'Opinion scale', title: 'How likely are you to recommend us to a friend?' },
  { kind: 'Yes / No', title: 'Did you find what you were looking for?' },
  { kind: 'Long text', title: 'What were you looking for?' },
  { kind: 'Multiple choice', title: 'Which parts of the shop did you visit?', choices: ['Books', 'Music', 'Games', 'Café'] },
  { kind: 'Dropdown', title: 'Which country do you live in?', paste: COUNTRIES },
  { kind: 'Date', title: 'When did you visit?' },
  { kind: 'Number', title: 'How many times have you visited this year?' },
  { kind: 'Long text', title: 'What could we do better?' },
  { kind: 'Yes / No', title: 'May we contact you about your answers?' },
];

/** Locators inside the workspace (Playwright's CSS and role locators pierce open shadow roots). */
const ui = (page) => ({
  builder: page.locator('formloom-builder'),
  title: (n) => page.getByLabel(`Question ${n}`, { exact: true }),
  kind: page.getByRole('combobox', { name: 'New question', exact: true }),
  add: page.getByRole('button', { name: 'Add question', exact: true }),
});

/**
 * Chooses an option of a `<select>` the owner just clicked (its list is open) by keyboard, the shorter way:
 * arrow keys to a near option, else its first letters; then Enter.
 */
async function pickByKeyboard(hands, select, label) {
  const { options, at } = await select.evaluate((s) => ({ options: [...s.options].map((o) => o.textContent.trim()), at: s.selectedIndex }));
  const to = options.indexOf(label);
  if (to < 0) throw new Error(`no option "${label}" in ${JSON.stringify(options)}`);
  if (to === at) return hands.press('Escape');
  let prefix = '';
  for (const ch of label) {
    prefix += ch;
    if (options.filter((o) => o.toLowerCase().startsWith(prefix.toLowerCase())).length === 1) break;
  }
  if (Math.abs(to - at) <= prefix.length) await hands.press(to > at ? 'ArrowDown' : 'ArrowUp', Math.abs(to - at));
  else for (const ch of prefix) await hands.press(ch === ' ' ? 'Space' : ch);
  await hands.press('Enter');
  const now = await select.evaluate((s) => s.selectedOptions[0]?.textContent?.trim() ?? '');
  if (now !== label) throw new Error(`the select chose "${now}", not "${label}"`);
}

/** Types a title, turning each `@word` into a recall chosen from the `@` menu by that word. */
async function typeTitle(hands, page, text) {
  const parts = text.split(/(@\w+)/);
  for (const p of parts) {
    if (!p) continue;
    if (!p.startsWith('@')) {
      await hands.type(p);
      continue;
    }
    await hands.type('@');
    const find = page.getByRole('combobox', { name: 'Find what to recall' });
    await find.waitFor();
    await hands.type(p.slice(1));
    await hands.press('Enter');
    await find.waitFor({ state: 'detached' });
  }
}

/**
 * Builds the reference form from the forms list to a published link. Returns the counts, the time, the
 * form's id, and the counts by part.
 */
async function buildReferenceForm(page, app) {
  const hands = new Hands(page);
  const $ = ui(page);
  await page.goto(app.url);
  await page.getByRole('heading', { name: 'Forms', exact: true }).waitFor();
  const t0 = monoMs();

  hands.part('new form and its title');
  await hands.click(page.getByRole('button', { name: 'New form', exact: true }));
  await hands.click(page.getByRole('button', { name: /^Blank form/ }));
  const formTitle = page.getByLabel('Form title', { exact: true });
  await formTitle.waitFor();
  await hands.click(formTitle);
  await hands.press('Control+A');
  await hands.type('Visitor feedback');

  for (const [i, q] of QUESTIONS.entries()) {
    const n = i + 1;
    hands.part(`question ${n} (${q.kind})`);
    // The kind under the list, then "Add question": the new question's title has the focus.
    if ((await $.kind.evaluate((s) => s.selectedOptions[0]?.textContent?.trim())) !== q.kind) {
      await hands.click($.kind);
      await pickByKeyboard(hands, $.kind, q.kind);
    }
    await hands.click($.add);
    const title = $.title(n);
    await title.waitFor();
    await page.waitForFunction(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return el?.classList.contains('title-input');
    });
    await typeTitle(hands, page, q.title);
    if (q.required) await hands.click(page.getByRole('checkbox', { name: 'Required', exact: true }));
    // Enter in the title goes on to the first choice, all selected while it is the placeholder "Option 1".
    if (q.choices) {
      await hands.press('Enter');
      for (const [k, c] of q.choices.entries()) {
        if (k > 0) await hands.press('Enter');
        await hands.type(c);
      }
    }
    if (q.paste) {
      await page.evaluate((text) => navigator.clipboard.writeText(text), q.paste.join('\n'));
      await hands.press('Enter');
      await hands.press('Control+V');
      await page.getByLabel(`Choice ${q.paste.length}`, { exact: true }).waitFor();
    }
    // What is left over from the kind's defaults (a placeholder choice) is removed by hand.
    const want = q.choices?.length ?? q.paste?.length;
    if (want) {
      const extra = page.getByLabel(`Choice ${want + 1}`, { exact: true });
      while (await extra.count()) await hands.click(page.getByRole('button', { name: `Remove choice ${want + 1}` }));
    }
  }

  // The jump: "Did you find what you were looking for?" Yes skips "What were you looking for?".
  hands.part('a jump (question 5: yes skips question 6)');
  await hands.click(page.getByRole('button', { name: /^5 · Yes \/ No/ }));
  await hands.click(page.locator('summary', { hasText: 'Logic jumps' }));
  await hands.click(page.getByRole('button', { name: 'Add a jump', exact: true }));
  const then = page.getByRole('combobox', { name: 'Jump 1: then', exact: true });
  await hands.click(then);
  await pickByKeyboard(hands, then, `Go to ${QUESTIONS[6].title}`);

  hands.part('a theme (accent colour)');
  await hands.click(page.getByRole('link', { name: 'Theme', exact: true }));
  const accent = page.getByLabel('Accent', { exact: true });
  await hands.click(accent);
  await hands.press('Control+A');
  await hands.type('#0f766e');

  hands.part('publish');
  await hands.click(page.getByRole('button', { name: 'Publish', exact: true }));
  const sheet = page.locator('fl-publish-sheet');
  await hands.click(sheet.getByRole('button', { name: 'Publish', exact: true }));
  await sheet.getByRole('heading', { name: 'Your form is live' }).waitFor({ timeout: 20_000 });
  const ms = monoMs() - t0;

  const formId = new URL(page.url()).pathname.split('/').filter(Boolean).at(-2);
  return { clicks: hands.clicks, keys: hands.keys, typed: hands.typed, ms, formId, parts: hands.parts() };
}

/** What the published form holds, checked against what the owner built (an invalid run is an error). */
async function checkReferenceForm(app, formId) {
  const errors = [];
  const { status, body: f } = await app.api('GET', `/forms/${formId}`);
  if (status !== 200) return [`GET /forms/${formId}: ${status}`];
  if (!f.published) errors.push('the form is not published');
  if (f.title !== 'Visitor feedback') errors.push(`form title ${JSON.stringify(f.title)}`);
  if (f.questions.length !== QUESTIONS.length) errors.push(`${f.questions.length} questions, not ${QUESTIONS.length}`);
  const q = (i) => f.questions[i] ?? {};
  const labels = (i) => (q(i).properties?.choices ?? []).map((c) => c.label);
  if (JSON.stringify(labels(6)) !== JSON.stringify(QUESTIONS[6].choices)) errors.push(`question 7's choices: ${JSON.stringify(labels(6))}`);
  if (JSON.stringify(labels(7)) !== JSON.stringify(COUNTRIES)) errors.push(`question 8 has ${labels(7).length} choices, not the 30 pasted`);
  if (!String(q(2).title).includes(`{answer.${q(0).id}`)) errors.push(`question 3 recalls no answer: ${JSON.stringify(q(2).title)}`);
  const jump = (q(4).logic_jumps ?? [])[0];
  if (!jump || jump.to !== q(6).id) errors.push(`question 5's jump: ${JSON.stringify(q(4).logic_jumps)}`);
  if (f.theme_color !== '#0f766e') errors.push(`accent colour ${JSON.stringify(f.theme_color)}`);
  if (!q(0).required || !q(2).required) errors.push('questions 1 and 3 are not required');
  return errors;
}

module.exports = { buildReferenceForm, checkReferenceForm, QUESTIONS };
