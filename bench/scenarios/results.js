'use strict';
// Results family (BENCH_ONLY=results; docs/benchmarks.md, "Results"): the results screen over a form of
// 1,000,000 responses (BENCH_RESULTS_RESPONSES), in Chromium on loopback against the workspace's own small
// app (bench/lib/workspace-app.js), its SQLite file seeded by direct SQL like the scale family
// (stored-responses.js, the analytics rollup filled as Formloom keeps it). Per cold load (new browser
// context): from navigation start until the summary's chart is drawn, and until the responses table shows
// its first rows (the "Responses" view chosen as soon as it can be); then "Older" clicked page after page,
// from the click until the next page's rows are shown. Also, for the documentation, what one search of
// the answers costs at that size (the API's first page, no target: a search reads every response).
const { describe, round, monoMs } = require('../lib/stats');
const { startWorkspaceBenchApp } = require('../lib/workspace-app');
const { CsvLines } = require('@formloom/core');
const { seedResponses } = require('./stored-responses');
const { formBody } = require('./forms');

const TARGETS = { openMs: 1000, nextPageMs: 200 };
const LOADS = 5;
const PAGES = 10;

function launch() {
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Runs in the page: resolves with performance.now() when `probe` (a function source) first returns true, polled per frame. */
const WAIT_IN_PAGE = `(probeSrc) => new Promise((resolve, reject) => {
  const probe = new Function('deep', 'return (' + probeSrc + ')(deep)');
  // Elements inside open shadow roots, found by tag along the workspace's nesting.
  const deep = (tag, root = document) => {
    const direct = root.querySelector(tag);
    if (direct) return direct;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const f = deep(tag, el.shadowRoot); if (f) return f; }
    return null;
  };
  const t0 = performance.now();
  const tick = () => {
    if (probe(deep)) return resolve(performance.now());
    if (performance.now() - t0 > 60000) return reject(new Error('not shown within 60 s'));
    requestAnimationFrame(tick);
  };
  tick();
})`;

const summaryDrawn = `(deep) => !!deep('fl-results-summary')?.shadowRoot?.querySelector('canvas[data-chart="by-day"]')`;
const rowsShown = `(deep) => { const t = deep('fl-results-table')?.shadowRoot; return !!t && t.querySelector('table')?.getAttribute('aria-busy') === 'false' && t.querySelectorAll('tbody tr').length > 0; }`;

const pressResponses = `(deep) => { const b = [...(deep('formloom-results')?.shadowRoot?.querySelectorAll('.views button') ?? [])].find((x) => x.textContent.trim().startsWith('Responses')); if (!b) return false; b.click(); return true; }`;

/** One cold load: ms from navigation start to the summary drawn, and to the table's first rows. */
async function openOnce(browser, app, formId) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([app.cookie]);
  const page = await context.newPage();
  try {
    await page.goto(`${app.url}/forms/${formId}/results`, { waitUntil: 'commit' });
    const summaryMs = await page.evaluate(`(${WAIT_IN_PAGE})(${JSON.stringify(summaryDrawn)})`);
    // The view switch, pressed in the page as soon as the summary is there (a person could not be quicker):
    // Playwright's own click (actionability checks and a round trip) is not the screen's time.
    await page.evaluate(`(${WAIT_IN_PAGE})(${JSON.stringify(pressResponses)})`);
    const rowsMs = await page.evaluate(`(${WAIT_IN_PAGE})(${JSON.stringify(rowsShown)})`);
    return { page, context, summaryMs, rowsMs };
  } catch (e) {
    await context.close();
    throw e;
  }
}

/** ms from a click on "Older" to the next page's rows, page after page, read in the page itself. */
async function nextPages(page, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const ms = await page.evaluate(`(async () => {
      const find = (${WAIT_IN_PAGE});
      const table = () => document.querySelector('formloom-workspace').shadowRoot.querySelector('formloom-builder').shadowRoot.querySelector('formloom-results').shadowRoot.querySelector('fl-results-table').shadowRoot;
      const first = () => table().querySelector('tbody tr')?.textContent;
      const before = first();
      const older = [...table().querySelectorAll('button')].find((b) => b.textContent.trim() === 'Older');
      const t0 = performance.now();
      older.click();
      const t1 = await find(${JSON.stringify(`(deep) => { const t = deep('fl-results-table')?.shadowRoot; return t.querySelector('table').getAttribute('aria-busy') === 'false' && t.querySelector('tbody tr') && t.querySelector('tbody tr').textContent !== BEFORE; }`)}.replace('BEFORE', JSON.stringify(before)));
      return t1 - t0;
    })()`);
    out.push(ms);
  }
  return out;
}

/** One API search (first page, its total counted) over the whole form: what the docs quote. */
async function searchCost(app, formId) {
  const t0 = monoMs();
  const res = await app.api('GET', `/forms/${formId}/responses?per_page=25&search=${encodeURIComponent('zzz-not-there')}`);
  return { ms: monoMs() - t0, status: res.status, total: res.body.total };
}

const phases = [
  {
    name: 'results: screen open and next page over 1,000,000 responses',
    async run(h) {
      const count = Number(process.env.BENCH_RESULTS_RESPONSES || 1_000_000);
      const errors = [];
      const app = await startWorkspaceBenchApp();
      const browser = await launch();
      try {
        const created = await app.createForm(formBody('results'));
        const published = (await app.api('POST', `/forms/${created.id}/publish`)).body;
        const questions = published.questions.map((q) => ({ id: q.id, type: q.type, title: q.title, properties: q.properties }));
        // What seedResponses writes each response's export line from, as publishedForm gives it.
        const form = {
          id: created.id,
          questions,
          versionId: published.published_version_id,
          version: published.version.version,
          snapshot: { questions, hidden_fields: published.hidden_fields },
          csvLines: new CsvLines(),
        };
        const t0 = monoMs();
        await seedResponses(app.dbFile, form, count);
        h?.log?.(`results: seeded ${count} responses in ${Math.round(monoMs() - t0)} ms`);
        const check = await app.api('GET', `/forms/${form.id}/responses?per_page=1`);
        if (check.body.total !== count) errors.push(`the list counts ${check.body.total} responses, expected ${count}`);

        const summary = [];
        const rows = [];
        let next = [];
        for (let i = 0; i < LOADS; i++) {
          const load = await openOnce(browser, app, form.id);
          summary.push(load.summaryMs);
          rows.push(load.rowsMs);
          // Paging on the last load only: its page is warm, as a person's would be.
          if (i === LOADS - 1) next = await nextPages(load.page, PAGES);
          await load.context.close();
        }
        const search = await searchCost(app, form.id);
        if (search.status !== 200 || search.total !== 0) errors.push(`search answered ${search.status}, total ${search.total}`);
        const s = describe(summary);
        const r = describe(rows);
        const n = describe(next);
        return {
          table: {
            title: `Results screen in Chromium on loopback over ${count.toLocaleString('en')} responses: ${LOADS} cold loads, then ${PAGES} pages by "Older"; one search of the answers (API, first page)`,
            columns: [
              { key: 'what', title: 'measure' },
              { key: 'p50', title: 'p50', right: true },
              { key: 'p95', title: 'p95', right: true },
              { key: 'max', title: 'max', right: true },
            ],
            rows: [
              { what: 'summary drawn (ms from navigation)', p50: round(s.p50, 0), p95: round(s.p95, 0), max: round(s.max, 0) },
              { what: 'table rows shown (ms from navigation)', p50: round(r.p50, 0), p95: round(r.p95, 0), max: round(r.max, 0) },
              { what: 'next page shown (ms from the click)', p50: round(n.p50, 1), p95: round(n.p95, 1), max: round(n.max, 1) },
              { what: 'search, first page with its total (ms, API)', p50: round(search.ms, 0), p95: '', max: '' },
            ],
          },
          checks: [
            // Medians: one load on a busy machine says more about the machine than the screen.
            { check: 'results: summary and first table rows shown from a cold load (median of 5)', value: `${round(Math.max(s.p50, r.p50), 0)} ms`, target: `< ${TARGETS.openMs} ms`, pass: Math.max(s.p50, r.p50) < TARGETS.openMs },
            { check: 'results: next page shown after "Older" (median of 10)', value: `${round(n.p50, 1)} ms`, target: `< ${TARGETS.nextPageMs} ms`, pass: n.p50 < TARGETS.nextPageMs },
          ],
          result: { responses: count, summary_ms: summary, rows_ms: rows, next_page_ms: next, search_ms: search.ms },
          errors,
        };
      } finally {
        await browser.close();
        await app.close();
      }
    },
  },
];

module.exports = { family: 'results', phases, TARGETS };
