'use strict';
// Ingest family: respondents submitting a completed response of 10 answers to a published form
// (POST /api/v1/public/forms/:slug/responses), compared with the baseline's hand-written equivalent and with
// the ceiling's (the same, inserting with group commit).
// Also home of the answer values every response family uses (valid for the questions of forms.js).
const { requestJson } = require('../lib/http');
const { formBody } = require('./forms');

const API = '/api/v1';
const JSON_HEADERS = { 'content-type': 'application/json' };

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'Linus'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Torvalds'];
const PROJECTS = [
  'We are building an internal tool for our support team, and need forms that feed our "ticket" pipeline.',
  'A registration flow for a community conference: about 400 attendees, two tracks, one workshop day.',
  'Customer onboarding for a small accounting firm. We want to replace PDFs sent by email.',
  'Collecting feedback after each release, then sending the answers to our data warehouse.',
  'Job applications for three open positions; we need file uploads later, but text answers first.',
];
/** A deterministic spread of n over [0, m). */
const spread = (n, m) => ((Math.imul(n + 1, 2654435761) >>> 0) % m);

/**
 * A valid answer value for question `q` ({ type, properties }) of respondent `n`: strings for text, email,
 * dropdown and single choice, whole numbers in range for rating and opinion scale, YYYY-MM-DD for date,
 * booleans for yes/no. No value contains a line break (an exported CSV has one line per response).
 */
function answerValue(q, n) {
  const labels = (q.properties.choices || []).map((c) => c.label);
  const s = (m) => spread(n, m);
  switch (q.type) {
    case 'short_text':
      return `${FIRST[s(10)]} ${LAST[spread(n + 7, 10)]}`;
    case 'email':
      return `${FIRST[s(10)].toLowerCase()}.${n}@example.com`;
    case 'long_text':
      return PROJECTS[s(PROJECTS.length)];
    case 'multiple_choice':
    case 'dropdown':
      return labels[s(labels.length)];
    case 'rating':
      return 1 + s(q.properties.steps || 5);
    case 'opinion_scale': {
      const min = q.properties.min ?? 0;
      return min + s((q.properties.max ?? 10) - min + 1);
    }
    case 'number':
      return 1 + s(250);
    case 'date':
      return new Date(Date.UTC(2026, 0, 1) + s(365) * 86400000).toISOString().slice(0, 10);
    case 'yes_no':
      return s(3) !== 0;
    default:
      throw new Error(`answerValue: no bench value for question type ${q.type}`);
  }
}

/** The `answers` array of respondent `n`, one per question, in question order. */
const answersFor = (questions, n) => questions.map((q) => ({ question_id: q.id, value: answerValue(q, n) }));

/**
 * Creates (Formloom) or finds (baseline) the published form respondents submit to; resolves with
 * { slug, questions: [{ id, type, properties }] }, read back through GET /forms/:id on either app.
 */
async function prepare(app) {
  let id = app.ingestFormId; // the baseline seeds its own published form
  if (!id) {
    const { body } = await requestJson(app.url, 'POST', `${API}/forms`, { apiKey: app.apiKey, body: formBody('ingest') });
    await requestJson(app.url, 'POST', `${API}/forms/${body.id}/publish`, { apiKey: app.apiKey });
    id = body.id;
  }
  const { body: form } = await requestJson(app.url, 'GET', `${API}/forms/${id}`, { apiKey: app.apiKey });
  if (!form.published || !form.slug) throw new Error(`${app.name}: the ingest form ${id} is not published`);
  const questions = form.questions.map((q) => ({ id: q.id, type: q.type, properties: q.properties }));
  // One submission outside the measure: a 201 here means every value is valid for this app.
  const probe = await requestJson(app.url, 'POST', `${API}/public/forms/${form.slug}/responses`, {
    body: { answers: answersFor(questions, 0), visitor_id: 'probe' },
  });
  if (probe.status !== 201) throw new Error(`${app.name}: the probe submission answered ${probe.status}`);
  return { formId: id, slug: form.slug, questions };
}

// ---- request factory (runs inside bench/load.js) ----

/** POST /public/forms/:slug/responses, a completed response of 10 answers (values vary per request). */
function submitResponseRequests({ slug, questions }) {
  let n = 0;
  const tag = `v${process.pid}`;
  return [
    {
      method: 'POST',
      path: `${API}/public/forms/${slug}/responses`,
      headers: JSON_HEADERS,
      setupRequest: (req) => {
        n++;
        return { ...req, body: JSON.stringify({ answers: answersFor(questions, n), visitor_id: `${tag}-${n}` }) };
      },
    },
  ];
}

/** Targets of issue 21: >= 1.0x the baseline's req/s, p99 at 10 connections <= 1.2x the baseline's, no errors. */
const TARGETS = { minRpsRatio: 1.0, maxP99Ratio: 1.2, p99AtConnections: [10] };
/** Issue 35: >= 0.8x the req/s of the ceiling (the bare app inserting with group commit); its p99 is shown only. */
const CEILING_TARGETS = { minRpsRatio: 0.8, maxP99Ratio: null, p99AtConnections: [] };

const scenarios = [
  {
    name: 'POST /public/forms/:slug/responses',
    factory: 'submitResponseRequests',
    args: ({ slug, questions }) => ({ slug, questions }),
    compareToBaseline: TARGETS,
    compareToCeiling: CEILING_TARGETS,
  },
];

/**
 * How many of Formloom's responses wait for the analytics indexer (docs/responses-and-webhooks.md, "How a submission
 * is counted"). Read from the database directly, beside the app (a SELECT on SQLite's WAL does not block it).
 */
async function queuedResponses(app) {
  if (app.dbFile) {
    const sqlite3 = require(require.resolve('sqlite3', { paths: [require('node:path').resolve(__dirname, '../../examples/self-hosted')] }));
    return new Promise((ok, fail) => {
      const db = new sqlite3.Database(app.dbFile, sqlite3.OPEN_READONLY, (err) => {
        if (err) return fail(err);
        db.get('SELECT COUNT(*) AS n FROM response_index_queue', (e, row) => db.close(() => (e ? fail(e) : ok(Number(row.n)))));
      });
    });
  }
  const { Client } = require(require.resolve('pg', { paths: [require('node:path').resolve(__dirname, '../../examples/self-hosted')] }));
  const c = new Client({ connectionString: app.pg.url });
  await c.connect();
  try {
    return Number((await c.query(`SELECT COUNT(*) AS n FROM "${app.pg.schema}".response_index_queue`)).rows[0].n);
  } finally {
    await c.end();
  }
}

/** Waits until `app`'s indexer has counted what it queued (at most `ms`); returns the backlog and the wait. */
async function drained(app, ms) {
  const t0 = Date.now();
  const backlog = await queuedResponses(app);
  let left = backlog;
  while (left > 0 && Date.now() - t0 < ms) {
    await new Promise((r) => setTimeout(r, 50));
    left = await queuedResponses(app);
  }
  return { backlog, left, ms: Date.now() - t0 };
}

/**
 * Before each compared run: Formloom's indexer counts what the runs before queued (it waits while submissions
 * commit, docs/decisions.md "The analytics indexer"), so that this work never runs in another app's measurement,
 * taking its CPU, nor in Formloom's next one.
 */
const settled = [];
async function settle(h) {
  if (!h.formloom) return;
  const { backlog, left, ms } = await drained(h.formloom, 120_000);
  settled.push({ backlog, left, ms });
  if (backlog > 0) h.log(`formloom's indexer counted ${backlog - left} queued responses in ${ms} ms before the next run${left ? ` (${left} left)` : ''}`);
}

/**
 * After the compared runs: how many of Formloom's responses still wait for the analytics indexer and how long it
 * takes to count them by itself, with no read asking.
 */
async function indexerDrainPhase(h) {
  const { backlog, left, ms } = await drained(h.formloom, 120_000);
  // The largest backlog a run left, counted before the next run (`settle`) or here.
  const worst = [...settled, { backlog, left, ms }].reduce((a, b) => (b.left > a.left || (b.left === a.left && b.ms > a.ms) ? b : a));
  const checks = [
    { check: 'ingest: the indexer counts its backlog by itself after a run', value: `${worst.backlog} responses in ${worst.ms} ms`, target: '< 120 s', pass: worst.left === 0 },
  ];
  return {
    table: {
      title: 'Analytics indexer after the ingest runs',
      columns: [
        { key: 'what', title: 'measure' },
        { key: 'v', title: 'value', right: true },
      ],
      rows: [
        { what: 'responses waiting when the last run ended', v: String(backlog) },
        { what: 'time until none waited (ms)', v: String(ms) },
        { what: 'the slowest count after a run: responses', v: String(worst.backlog) },
        { what: 'the slowest count after a run: time until none waited (ms)', v: String(worst.ms) },
      ],
    },
    checks,
    result: { backlog, drain_ms: ms, left, worst, settled },
    errors: [],
  };
}

module.exports = { family: 'ingest', prepare, settle, scenarios, phases: [{ name: 'ingest indexer drain', run: indexerDrainPhase }], answerValue, answersFor, submitResponseRequests };
