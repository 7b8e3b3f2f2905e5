'use strict';
// Scale family (BENCH_ONLY=scale): the same measures on a form of 100,000 responses and on one of
// 1,000,000 (BENCH_SCALE_SIZES), in one database, to show which costs grow with the data. For each
// size: GET /forms/:id/analytics, GET /forms/:id/analytics/questions, and GET /forms/:id/responses page 1 and a deep page (9,000 at
// per_page 10: the 89,991st response onwards), with and without `completed=true`. Prints each measure's
// growth ratio (large / small) and checks the targets at the largest size. Seeding is direct SQL in one
// transaction (stored-responses.js), with the analytics rollup filled as Formloom keeps it. The second
// phase does the same for the forms list at 1,000 vs 100,000 forms (scale-forms.js). Each phase seeds
// what it measures, so `BENCH_ONLY="scale forms"` runs the forms list alone.
const os = require('node:os');
const { monoMs } = require('../lib/stats');
const { timeGets } = require('../lib/timed-gets');
const { publishedForm, seedResponses } = require('./stored-responses');
const { formsListPhase } = require('./scale-forms');

const API = '/api/v1';
const TARGETS = { analyticsP95Ms: 25, summariesP95Ms: 50, page1Ms: 15, deepPageRatio: 2 };
const DEEP_PAGE = 9000;
const PER_PAGE = 10;

async function newSeededForm(h, count) {
  const app = h.formloom;
  const form = await publishedForm(app, 'scale');
  const t0 = monoMs();
  await seedResponses(app.dbFile, form, count);
  h.log(`formloom: seeded ${count} responses of form ${form.id} in ${Math.round(monoMs() - t0)} ms`);
  return form;
}

async function scalePhase(h) {
  const state = { forms: [] };
  for (const size of h.config.scaleSizes) state.forms.push({ size, form: await newSeededForm(h, size) });
  const app = h.formloom;
  const n = h.config.analyticsRequests;
  const errors = [];
  const measures = {}; // measure -> size -> describe()
  const record = (what, size, d) => ((measures[what] ??= {})[size] = d);
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  for (const { size, form } of state.forms) {
    const base = `${API}/forms/${form.id}`;
    record('analytics', size, await timeGets(app, `${base}/analytics`, n, errors, (b) => {
      if (b.total_responses !== size) errors.push(`analytics counts ${b.total_responses}, expected ${size}`);
    }));
    record('question summaries', size, await timeGets(app, `${base}/analytics/questions`, n, errors, (b) => {
      if (b.total_responses !== size) errors.push(`question summaries count ${b.total_responses}, expected ${size}`);
      const choice = b.questions.find((q) => q.kind === 'choices');
      if (!choice || choice.answered === 0) errors.push('question summaries: no counted choices');
    }));
    for (const [label, filter] of [['', ''], [' completed=true', '&completed=true']]) {
      record(`list page 1${label}`, size, await timeGets(app, `${base}/responses?per_page=${PER_PAGE}&page=1${filter}`, n, errors));
      record(`list page ${DEEP_PAGE}${label}`, size, await timeGets(app, `${base}/responses?per_page=${PER_PAGE}&page=${DEEP_PAGE}${filter}`, n, errors, (b) => {
        if (b.responses.length !== PER_PAGE) errors.push(`page ${DEEP_PAGE}${label} has ${b.responses.length} responses`);
      }));
    }
  }
  const sizes = state.forms.map((f) => f.size);
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const rows = Object.entries(measures).map(([what, bySize]) => ({
    what,
    ...Object.fromEntries(sizes.map((s) => [`p50_${s}`, bySize[s].p50.toFixed(2)])),
    p95_large: bySize[large].p95.toFixed(2),
    growth: (bySize[large].p50 / bySize[small].p50).toFixed(2),
  }));
  const at = (what) => measures[what][large];
  const checks = [
    { check: `scale: analytics p95 at ${large}`, value: `${at('analytics').p95.toFixed(1)} ms`, target: `< ${TARGETS.analyticsP95Ms} ms`, pass: at('analytics').p95 < TARGETS.analyticsP95Ms },
    { check: `scale: question summaries p95 at ${large}`, value: `${at('question summaries').p95.toFixed(1)} ms`, target: `< ${TARGETS.summariesP95Ms} ms`, pass: at('question summaries').p95 < TARGETS.summariesP95Ms },
  ];
  for (const label of ['', ' completed=true']) {
    const first = at(`list page 1${label}`);
    const deep = at(`list page ${DEEP_PAGE}${label}`);
    checks.push(
      { check: `scale: list page 1${label} p50 at ${large}`, value: `${first.p50.toFixed(1)} ms`, target: `< ${TARGETS.page1Ms} ms`, pass: first.p50 < TARGETS.page1Ms },
      { check: `scale: list page ${DEEP_PAGE}${label} / page 1 (p50) at ${large}`, value: (deep.p50 / first.p50).toFixed(2), target: `< ${TARGETS.deepPageRatio}`, pass: deep.p50 / first.p50 < TARGETS.deepPageRatio },
    );
  }
  return {
    table: {
      title: `Scale: ${sizes.join(' vs ')} responses per form (${n} sequential requests each; load average ${load})`,
      columns: [
        { key: 'what', title: 'measure' },
        ...sizes.map((s) => ({ key: `p50_${s}`, title: `p50 ms @${s}`, right: true })),
        { key: 'p95_large', title: `p95 ms @${large}`, right: true },
        { key: 'growth', title: 'growth (p50 ratio)', right: true },
      ],
      rows,
    },
    checks,
    result: { sizes, measures, load_average: load, targets: TARGETS },
    errors,
  };
}

module.exports = {
  family: 'scale',
  phases: [
    { name: 'scale responses', run: scalePhase },
    { name: 'scale forms list', run: formsListPhase },
  ],
};
