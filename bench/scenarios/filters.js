'use strict';
// Filters family (BENCH_ONLY=filters; docs/benchmarks.md, "Filters and funnel"): filters by answer and the
// funnel (issue 37) on a form of 1,000,000 responses (BENCH_FILTER_RESPONSES). Seeding is the scale family's
// direct SQL (stored-responses.js, the rollups filled as Formloom keeps them); then the answers index and the
// funnel's counters are written by the storage adapter's own functions (lib/answer-index.js), and views and
// starts recorded. Sequential timed GETs of: the question summaries with one answer
// filter (Country = Germany, a sixth of the responses), the responses list's first page with it, the funnel;
// and, for the documentation, the same reads with NPS >= 9 (about 18%), with both (all), and with a date
// (one day of 365).
const os = require('node:os');
const { monoMs } = require('../lib/stats');
const { requestJson } = require('../lib/http');
const { timeGets } = require('../lib/timed-gets');
const { writeAnswerIndex } = require('../lib/answer-index');
const { publishedForm, seedResponses } = require('./stored-responses');

const API = '/api/v1';
const TARGETS = { summaryP95Ms: 150, page1P95Ms: 100, funnelP95Ms: 50 };
const PER_PAGE = 25;
const VIEWS = 40;

const filterOf = (match, ...conditions) => `filter=${encodeURIComponent(JSON.stringify({ match, conditions }))}`;

async function filtersPhase(h) {
  const app = h.formloom;
  if (!app.dbFile) throw new Error('the filters family seeds SQLite (run it without BENCH_DATABASE=postgres)');
  const count = Number(process.env.BENCH_FILTER_RESPONSES || 1_000_000);
  const form = await publishedForm(app, 'filters');
  const { body: full } = await requestJson(app.url, 'GET', `${API}/forms/${form.id}`, { apiKey: app.apiKey });
  const t0 = monoMs();
  let indexed = { indexed: 0, pairs: 0 };
  // Views and starts: the page's reports of a form seen by 1.5x as many people as responded.
  await seedResponses(app.dbFile, form, count, async (db) => {
    indexed = await writeAnswerIndex(db, form, { views: Math.round(count * 1.5), starts: Math.round(count * 1.1) });
  });
  h.log(`formloom: seeded ${count} responses of form ${form.id}, their answers index (${indexed.indexed} rows), pair counts (${indexed.pairs} rows) and funnel counters in ${Math.round(monoMs() - t0)} ms`);
  for (let i = 0; i < VIEWS; i++) {
    const { status } = await requestJson(app.url, 'POST', `${API}/public/forms/${encodeURIComponent(full.slug)}/visits`, { body: { event: i % 4 === 3 ? 'start' : 'view' } });
    if (status !== 200) throw new Error(`visits answered ${status}`);
  }

  const q = (type) => form.questions.find((x) => x.type === type).id;
  const germany = filterOf('all', { question_id: q('dropdown'), op: 'equals', value: 'Germany' });
  const promoters = filterOf('all', { question_id: q('opinion_scale'), op: 'greater_or_equal', value: 9 });
  const oneDay = filterOf('all', { question_id: q('date'), op: 'equals', value: '2026-03-01' });
  const both = filterOf('all', { question_id: q('dropdown'), op: 'equals', value: 'Germany' }, { question_id: q('opinion_scale'), op: 'greater_or_equal', value: 9 });
  const n = h.config.analyticsRequests;
  const errors = [];
  const base = `${API}/forms/${form.id}`;
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const measures = {};
  const totals = {};
  for (const [label, filter] of [['Country = Germany', germany], ['NPS >= 9', promoters], ['Germany and NPS >= 9', both], ['start date = 2026-03-01', oneDay]]) {
    measures[`summary, ${label}`] = await timeGets(app, `${base}/analytics/questions?${filter}`, n, errors, (b) => {
      totals[label] = b.total_responses;
      if (!(b.total_responses > 0 && b.total_responses < count)) errors.push(`summary ${label} counts ${b.total_responses}`);
    });
    measures[`table page 1, ${label}`] = await timeGets(app, `${base}/responses?per_page=${PER_PAGE}&${filter}`, n, errors, (b) => {
      if (b.total !== totals[label] || b.responses.length !== PER_PAGE) errors.push(`list ${label}: total ${b.total} (summary ${totals[label]}), ${b.responses.length} rows`);
    });
    measures[`analytics, ${label}`] = await timeGets(app, `${base}/analytics?${filter}`, n, errors);
  }
  measures.funnel = await timeGets(app, `${base}/analytics/funnel`, n, errors, (b) => {
    const completed = b.steps[b.steps.length - 1].count;
    if (b.steps[1].count !== Math.round(count * 1.1) + VIEWS / 4 || completed !== count - count / 10) errors.push(`funnel: starts ${b.steps[1].count}, completed ${completed}`);
  });
  const rows = Object.entries(measures).map(([what, d]) => ({ what, p50: d.p50.toFixed(1), p95: d.p95.toFixed(1) }));
  const at = (k) => measures[k].p95;
  const checks = [
    { check: `filters: summary with one answer filter (Country = Germany, ${totals['Country = Germany']}) p95 at ${count}`, value: `${at('summary, Country = Germany').toFixed(1)} ms`, target: `< ${TARGETS.summaryP95Ms} ms`, pass: at('summary, Country = Germany') < TARGETS.summaryP95Ms },
    { check: `filters: table page 1 with one answer filter p95 at ${count}`, value: `${at('table page 1, Country = Germany').toFixed(1)} ms`, target: `< ${TARGETS.page1P95Ms} ms`, pass: at('table page 1, Country = Germany') < TARGETS.page1P95Ms },
    { check: `filters: funnel p95 at ${count}`, value: `${at('funnel').toFixed(1)} ms`, target: `< ${TARGETS.funnelP95Ms} ms`, pass: at('funnel') < TARGETS.funnelP95Ms },
  ];
  return {
    table: {
      title: `Filters and funnel over ${count} responses (${n} sequential requests each; matching: ${JSON.stringify(totals)}; load average ${load})`,
      columns: [
        { key: 'what', title: 'measure' },
        { key: 'p50', title: 'p50 ms', right: true },
        { key: 'p95', title: 'p95 ms', right: true },
      ],
      rows,
    },
    checks,
    result: { count, measures, totals, load_average: load, targets: TARGETS },
    errors,
  };
}

module.exports = { family: 'filters', phases: [{ name: 'filters and funnel', run: filtersPhase }] };
