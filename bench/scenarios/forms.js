'use strict';
// Forms scenarios: the data shape (a form of 10 questions), seeding through the API, and the autocannon
// request factories that bench/load.js calls in the load process (exported by name, see `scenarios`).
const { requestJson, mapLimit } = require('../lib/http');

const API = '/api/v1';

/** The 10 questions every bench form has: a realistic mix of types and property sizes. */
function questions() {
  const choices = (labels) => labels.map((label) => ({ label }));
  return [
    { type: 'short_text', title: 'What is your name?', required: true, properties: { placeholder: 'Jane Doe', max_length: 200 } },
    { type: 'email', title: 'Your work email', required: true, properties: { placeholder: 'jane@example.com' } },
    { type: 'long_text', title: 'Tell us about your project', description: 'A few sentences are enough.', properties: { placeholder: 'We are building...', max_length: 5000 } },
    { type: 'multiple_choice', title: 'How did you hear about us?', properties: { choices: choices(['Search engine', 'A friend or colleague', 'Social media', 'Conference']), allow_multiple: false } },
    { type: 'dropdown', title: 'Country', properties: { choices: choices(['France', 'Germany', 'Japan', 'Kenya', 'United Kingdom', 'United States']) } },
    { type: 'rating', title: 'How would you rate your experience?', properties: { steps: 5, shape: 'star' } },
    { type: 'opinion_scale', title: 'How likely are you to recommend us?', properties: { min: 0, max: 10, min_label: 'Not likely', max_label: 'Very likely' } },
    { type: 'number', title: 'How many people are on your team?', properties: { min: 1, max: 100000 } },
    { type: 'date', title: 'When would you like to start?', properties: { format: 'YYYY-MM-DD' } },
    { type: 'yes_no', title: 'May we email you product news?', properties: {} },
  ];
}

/** The POST /forms body of bench form `i`. */
function formBody(i) {
  return {
    title: `Bench form ${i}`,
    description: `Customer intake form number ${i}, used by the benchmark.`,
    theme_color: '#4f46e5',
    questions: questions(),
  };
}

/** Creates `count` forms through the API, `concurrency` at a time; resolves with their ids and one GET's size. */
async function seedForms(baseUrl, apiKey, { count = 1000, concurrency = 8 } = {}) {
  const ids = await mapLimit(count, concurrency, async (i) => {
    const { body } = await requestJson(baseUrl, 'POST', `${API}/forms`, { apiKey, body: formBody(i) });
    if (!body || !body.id || !Array.isArray(body.questions) || body.questions.length !== 10) {
      throw new Error(`POST /forms answered an unexpected body: ${JSON.stringify(body).slice(0, 300)}`);
    }
    return body.id;
  });
  return ids;
}

const pick = (arr) => arr[Math.floor(Math.random() * arr.length)];
const JSON_HEADERS = { 'content-type': 'application/json' };

// ---- request factories (run inside bench/load.js) ----

/** GET /forms/:id over random seeded ids. */
function getFormRequests({ ids }) {
  return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${API}/forms/${pick(ids)}` }) }];
}

/** GET /forms?page=N&per_page=20 over random pages of the seeded forms. */
function listFormsRequests({ pages, perPage = 20 }) {
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: `${API}/forms?page=${1 + Math.floor(Math.random() * pages)}&per_page=${perPage}` }),
    },
  ];
}

/** POST /forms with a 10-question body. */
function createFormRequests() {
  let n = 0;
  return [
    {
      method: 'POST',
      path: `${API}/forms`,
      headers: JSON_HEADERS,
      setupRequest: (req) => ({ ...req, body: JSON.stringify(formBody(`load-${process.pid}-${n++}`)) }),
    },
  ];
}

/** PUT /forms/:id changing the title of random seeded forms. */
function updateFormRequests({ ids }) {
  let n = 0;
  return [
    {
      method: 'PUT',
      headers: JSON_HEADERS,
      setupRequest: (req) => ({ ...req, path: `${API}/forms/${pick(ids)}`, body: JSON.stringify({ title: `Renamed form ${n++}` }) }),
    },
  ];
}

/**
 * The scenarios, in run order (writes last, so reads see exactly the seeded data). `args(ctx)` builds the
 * factory's arguments from the run context `{ ids }`.
 */
/**
 * Issue 35: against the ceiling (the form answered from memory after the same key check, the least any cached
 * server can do), >= 0.9x its req/s and a p99 <= 1.2x its own, at 10 and at 50 connections.
 */
const CEILING_TARGETS = { minRpsRatio: 0.9, maxP99Ratio: 1.2, p99AtConnections: [10, 50] };

const scenarios = [
  { name: 'GET /forms/:id', factory: 'getFormRequests', args: ({ ids }) => ({ ids }), compareToBaseline: true, compareToCeiling: CEILING_TARGETS },
  { name: 'GET /forms?page', factory: 'listFormsRequests', args: ({ ids }) => ({ pages: Math.ceil(ids.length / 20), perPage: 20 }) },
  { name: 'PUT /forms/:id', factory: 'updateFormRequests', args: ({ ids }) => ({ ids }) },
  { name: 'POST /forms', factory: 'createFormRequests', args: () => ({}) },
];

module.exports = {
  questions,
  formBody,
  seedForms,
  scenarios,
  getFormRequests,
  listFormsRequests,
  createFormRequests,
  updateFormRequests,
};
