'use strict';
// In-page timings of the builder at 200 questions (docs/benchmarks.md, "workspace"), for
// bench/scenarios/workspace.js: each measured with performance marks in the page, from the key's `keydown`
// (a capture listener on the window, before the builder's own) to the screen showing the result.

/** Finds the builder's parts through their shadow roots (in the page). */
const IN_PAGE_HELPERS = () => {
  window.__fl = {
    builder: () => document.querySelector('formloom-workspace').shadowRoot.querySelector('formloom-builder'),
    part: (sel) => window.__fl.builder().shadowRoot.querySelector(sel),
    /**
     * Resolves once every element the builder re-rendered has finished (Lit's updateComplete, twice over, since a
     * parent's render sets its children's properties) and the page is laid out again (a forced layout).
     */
    async settle() {
      const b = window.__fl.builder();
      for (let i = 0; i < 2; i++) {
        await b.updateComplete;
        const parts = ['fl-question-list', 'fl-question-editor', 'fl-preview'].map((s) => b.shadowRoot.querySelector(s)).filter(Boolean);
        await Promise.all(parts.map((p) => p.updateComplete));
      }
      window.__flJs = performance.now();
      void document.body.offsetHeight;
    },
  };
};

/**
 * Undo at 200 questions: the owner makes `steps` changes of several kinds in a 200-question form (typing in a
 * title, Required, a new question, a duplicate, a deletion, a move), then takes them all back with Ctrl+Z and
 * makes them again with Ctrl+Shift+Z, `rounds` times. Per key: ms from keydown to the builder, its question
 * list, its editor and its preview re-rendered and laid out, and the part of it until the elements had
 * re-rendered, before layout (`undoScript`, `redoScript`). Returns those lists of ms, `steps` and `after`.
 */
async function undoLatency(page, app, formId, { steps = 60, rounds = 3 } = {}) {
  await page.goto(`${app.url}/forms/${formId}`);
  await page.getByRole('button', { name: /Question 100 of 200/ }).click();
  await page.locator('fl-preview formloom-form').first().waitFor();
  await page.evaluate(IN_PAGE_HELPERS);
  const title = () => page.locator('fl-question-editor .title-input');
  const kinds = [
    async (i) => {
      await title().click();
      await page.keyboard.press('End');
      await page.keyboard.type(` v${i}`);
      await page.keyboard.press('Tab'); // leaving the field ends the step
    },
    async () => page.getByRole('checkbox', { name: 'Required', exact: true }).click(),
    async () => page.getByRole('button', { name: 'Add question', exact: true }).click(),
    async () => page.locator('fl-question-list li[aria-current="true"] button[aria-label^="Duplicate"]').click(),
    async () => page.locator('fl-question-list li[aria-current="true"] button[aria-label^="Delete"]').click(),
    async () => {
      await page.locator('fl-question-list li[aria-current="true"] .pick').focus();
      await page.keyboard.press('Alt+ArrowDown');
    },
  ];
  for (let i = 0; i < steps; i++) {
    await kinds[i % kinds.length](i);
    await page.evaluate(() => window.__fl.settle());
  }
  const size = await page.evaluate(() => window.__fl.builder().store.history.size);
  if (size < steps) throw new Error(`${size} steps in the history after ${steps} changes`);
  // Nothing focused in a field: the keys go to the builder (as after a click on the page).
  await page.evaluate(() => document.activeElement?.blur());
  await page.evaluate(() => {
    window.__lat = [];
    const isUndo = (e) => e.ctrlKey && e.key.toLowerCase() === 'z';
    // The start in the capture phase on the window, before anything else sees the key; the end waited for in
    // the bubble phase on the window, after the builder's own listener (on the document) has run.
    window.addEventListener('keydown', (e) => isUndo(e) && performance.mark('fl-undo:start'), true);
    window.addEventListener('keydown', async (e) => {
      if (!isUndo(e)) return;
      await window.__fl.settle();
      const m = performance.measure('fl-undo', 'fl-undo:start');
      window.__lat.push({ what: e.shiftKey ? 'redo' : 'undo', ms: m.duration, js: window.__flJs - m.startTime });
    });
  });
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    for (const key of ['Control+z', 'Control+Shift+Z']) {
      for (let i = 0; i < steps; i++) {
        await page.keyboard.press(key);
        n += 1;
        await page.waitForFunction((k) => window.__lat.length >= k, n);
      }
    }
  }
  const lat = await page.evaluate(() => window.__lat);
  const after = await page.evaluate(() => ({ size: window.__fl.builder().store.history.size, questions: window.__fl.builder().store.draft.questions.length }));
  const of = (what, k) => lat.filter((x) => x.what === what).map((x) => x[k]);
  return { undo: of('undo', 'ms'), redo: of('redo', 'ms'), undoScript: of('undo', 'js'), redoScript: of('redo', 'js'), steps, after };
}

module.exports = { undoLatency, IN_PAGE_HELPERS };
