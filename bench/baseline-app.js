'use strict';
// The baseline: a bare Express 5 + sqlite3 app answering GET /api/v1/forms/:id and
// POST /api/v1/public/forms/:slug/responses with hand-written queries, on the same data shape as Formloom
// (users, api_keys with a SHA-256 hashed secret, forms, questions, responses). It is what "fast" looks like
// on this machine; bench/run.js compares Formloom's GET and response ingest against it.
//
// On PostgreSQL (BASELINE_PG_URL, BASELINE_PG_SCHEMA) the same routes run on `pg` (bench/lib/baseline-pg.js).
// With BASELINE_CEILING=1 it is the ceiling instead: forms answered from memory, submissions inserted with
// group commit (bench/lib/ceiling.js).
// Env: PORT, BASELINE_DB (SQLite file), BASELINE_API_KEY (`fl_<suffix>_<64 hex>`), BASELINE_FORMS (count).
// Seeds itself when the database is empty. Form ids are `formId(i)`, exported for the orchestrator, plus
// one published form for the ingest, `INGEST_FORM_ID` (not among the GET's forms).
const crypto = require('node:crypto');
const express = require('express');
const sqlite3 = require('sqlite3');
const { questions: benchQuestions, formBody } = require('./scenarios/forms');
const { openPg } = require('./lib/baseline-pg');
const { cachedGetForm, groupCommit } = require('./lib/ceiling');

const KEY_PATTERN = /^fl_([A-Za-z0-9]{8,40})_([0-9a-f]{64})$/;
const sha256 = (s) => crypto.createHash('sha256').update(s).digest();

/** Form option fields of Formloom's Get Form body (theme fields without show_question_nav, then settings). */
const COLOR = ['theme_color', 'background_color', 'text_color', 'answer_text_color', 'placeholder_color', 'button_color', 'button_text_color', 'title_color', 'description_color', 'option_text_color', 'indicator_bg_color', 'indicator_text_color'];
const FONT = ['font_family', 'font_family_answer', 'font_family_button', 'font_family_description', 'font_family_option', 'font_family_indicator'];
const OPTION_FIELDS = [
  ...COLOR, ...FONT, 'question_font_size', 'custom_css', 'show_progress_bar',
  'branding_logo_url', 'branding_footer_text', 'hide_branding', 'top_logo_url', 'top_logo_size', 'top_logo_alignment', 'top_logo_css', 'watermark_css',
  'welcome_title', 'welcome_description', 'welcome_button_text', 'thank_you_title', 'thank_you_description',
  'auto_translate', 'mode', 'quiz_settings', 'variables', 'start_logic_jumps', 'webhook_url', 'limit_one_response', 'incremental_submission',
];
const DEFAULTS = { show_progress_bar: true, hide_branding: false, welcome_button_text: 'Start', thank_you_title: 'Thank you!', auto_translate: false, mode: 'standard', limit_one_response: false, incremental_submission: false };

const INGEST_FORM_ID = 'frm_benchingest00000000000';

const formId = (i) => `frm_bench${String(i).padStart(6, '0')}${crypto.createHash('md5').update(String(i)).digest('hex').slice(0, 11)}`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (id varchar PRIMARY KEY, email varchar NOT NULL, email_lower varchar NOT NULL UNIQUE,
  first_name varchar, last_name varchar, plan varchar NOT NULL, email_verified boolean NOT NULL, created_at varchar NOT NULL, updated_at varchar NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (id varchar PRIMARY KEY, user_id varchar NOT NULL, secret_hash varchar NOT NULL, scope varchar NOT NULL,
  monthly_limit integer, created_at varchar NOT NULL, revoked_at varchar, expires_at varchar);
CREATE INDEX IF NOT EXISTS IDX_api_keys_user_id ON api_keys (user_id);
CREATE TABLE IF NOT EXISTS forms (id varchar PRIMARY KEY, owner_id varchar NOT NULL, team_id varchar, slug varchar NOT NULL UNIQUE, title text NOT NULL,
  title_search text NOT NULL, description text, published boolean NOT NULL, has_unpublished_changes boolean NOT NULL, published_version_id varchar,
  response_count integer NOT NULL, theme_color varchar, background_color varchar, options text NOT NULL, created_at varchar NOT NULL, updated_at varchar NOT NULL);
CREATE INDEX IF NOT EXISTS IDX_forms_owner_id ON forms (owner_id);
CREATE INDEX IF NOT EXISTS IDX_forms_team_id ON forms (team_id);
CREATE TABLE IF NOT EXISTS questions (form_id varchar NOT NULL REFERENCES forms (id) ON DELETE CASCADE, id varchar NOT NULL, type varchar NOT NULL,
  title text NOT NULL, description text, required boolean NOT NULL, sort_order integer NOT NULL, properties text NOT NULL, logic_jumps text NOT NULL,
  validations text NOT NULL, PRIMARY KEY (form_id, id));
CREATE INDEX IF NOT EXISTS IDX_questions_form_order ON questions (form_id, sort_order);
CREATE TABLE IF NOT EXISTS responses (id varchar PRIMARY KEY, form_id varchar NOT NULL REFERENCES forms (id) ON DELETE CASCADE,
  visitor_id varchar, version_id varchar, version integer, answers text NOT NULL, metadata text NOT NULL, quiz_results text,
  started_at varchar, submitted_at varchar NOT NULL, completed_at varchar, completion_seconds integer, resume_token_hash varchar,
  unique_visitor varchar);
CREATE INDEX IF NOT EXISTS IDX_responses_form_submitted ON responses (form_id, submitted_at, id, completed_at, completion_seconds);
CREATE UNIQUE INDEX IF NOT EXISTS UQ_responses_form_unique_visitor ON responses (form_id, unique_visitor);
`;

const p = (db, method, sql, params = []) =>
  new Promise((resolve, reject) => db[method](sql, params, (err, res) => (err ? reject(err) : resolve(res))));

/** `true`/`false` for PostgreSQL's booleans, 1/0 for SQLite's. */
const bool = (db, v) => (db.isPg ? !!v : v ? 1 : 0);

async function seed(db, apiKey, count) {
  if (db.isPg) return db.transaction((tx) => seedRows(tx, apiKey, count));
  await p(db, 'run', 'BEGIN');
  await seedRows(db, apiKey, count);
  await p(db, 'run', 'COMMIT');
}

async function seedRows(db, apiKey, count) {
  const m = KEY_PATTERN.exec(apiKey);
  if (!m) throw new Error('BASELINE_API_KEY must look like fl_<suffix>_<64 hex>');
  const now = new Date().toISOString();
  const userId = 'usr_benchbaseline0000000';
  const options = {};
  for (const f of OPTION_FIELDS) if (f !== 'theme_color' && f !== 'background_color') options[f] = DEFAULTS[f] ?? null;
  await p(db, 'run', 'INSERT INTO users VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, ?)', [userId, 'bench@example.com', 'bench@example.com', 'pro', bool(db, 1), now, now]);
  await p(db, 'run', 'INSERT INTO api_keys VALUES (?, ?, ?, ?, NULL, ?, NULL, NULL)', [`key_${m[1]}`, userId, sha256(m[2]).toString('hex'), 'forms', now]);
  const insertForm = async (id, body, published) => {
    await p(db, 'run', 'INSERT INTO forms VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?)', [
      id, userId, crypto.randomBytes(5).toString('hex'), body.title, body.title.toLowerCase(), body.description, bool(db, published), bool(db, 0),
      body.theme_color, '#0a0a0a', JSON.stringify(options), now, now,
    ]);
    let order = 0;
    for (const q of benchQuestions()) {
      await p(db, 'run', 'INSERT INTO questions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        id, `q_${crypto.randomBytes(10).toString('hex')}`, q.type, q.title, q.description ?? null, bool(db, q.required), order++,
        JSON.stringify(q.properties), '[]', '{}',
      ]);
    }
  };
  for (let i = 0; i < count; i++) await insertForm(formId(i), formBody(i), false);
  await insertForm(INGEST_FORM_ID, formBody('ingest'), true);
}

function presentForm(form, rows) {
  const options = JSON.parse(form.options);
  const body = { id: form.id, title: form.title, description: form.description, team_id: form.team_id, published: !!form.published };
  for (const f of OPTION_FIELDS) body[f] = f === 'theme_color' || f === 'background_color' ? form[f] : (options[f] ?? null);
  body.slug = form.slug;
  body.created_at = form.created_at;
  body.updated_at = form.updated_at;
  body.has_unpublished_changes = !!form.has_unpublished_changes;
  body.published_version_id = form.published_version_id;
  body.response_count = form.response_count;
  body.questions = rows.map((q) => ({
    id: q.id, type: q.type, title: q.title, description: q.description, required: !!q.required, order: q.sort_order,
    properties: JSON.parse(q.properties), logic_jumps: JSON.parse(q.logic_jumps), validations: JSON.parse(q.validations),
  }));
  return body;
}

// ---- response ingest: parse, validate minimally, insert the row and count it in one transaction ----

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isInt = (v, min, max) => Number.isInteger(v) && v >= min && v <= max;
const choiceOk = (q, v) => typeof v === 'string' && (q.properties.choices || []).some((c) => c.label === v);

/** Whether `v` is a valid non-empty value for question `q` (the types of the bench form). */
function valueOk(q, v) {
  switch (q.type) {
    case 'short_text':
    case 'long_text':
      return typeof v === 'string' && v.length <= (q.properties.max_length ?? Infinity);
    case 'email':
      return typeof v === 'string' && EMAIL.test(v);
    case 'dropdown':
    case 'multiple_choice':
      return choiceOk(q, v);
    case 'rating':
      return isInt(v, 1, q.properties.steps ?? 5);
    case 'opinion_scale':
      return isInt(v, q.properties.min ?? 0, q.properties.max ?? 10);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) && v >= (q.properties.min ?? -Infinity) && v <= (q.properties.max ?? Infinity);
    case 'date':
      return typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v));
    case 'yes_no':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

const isEmpty = (v) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The question ids that fail, or null when the answers are acceptable for a completed response. */
function checkAnswers(questions, answers) {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set();
  const answered = new Set();
  const bad = [];
  for (const a of answers) {
    const q = a && typeof a === 'object' && typeof a.question_id === 'string' ? byId.get(a.question_id) : undefined;
    if (!q || seen.has(q.id)) {
      bad.push(a && a.question_id);
      continue;
    }
    seen.add(q.id);
    if (isEmpty(a.value)) continue;
    answered.add(q.id);
    if (!valueOk(q, a.value)) bad.push(q.id);
  }
  for (const q of questions) if (q.required && !answered.has(q.id)) bad.push(q.id);
  return bad.length ? bad : null;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
function randomId(prefix) {
  let s = '';
  for (const b of crypto.randomBytes(20)) s += ALPHABET[b % 62];
  return `${prefix}_${s}`;
}

/** One write transaction at a time on the single connection (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK). */
function transactions(db) {
  if (db.isPg) return (work) => db.transaction(work);
  let tail = Promise.resolve();
  return (work) => {
    const result = tail.then(async () => {
      await p(db, 'run', 'BEGIN IMMEDIATE');
      try {
        const r = await work();
        await p(db, 'run', 'COMMIT');
        return r;
      } catch (e) {
        await p(db, 'run', 'ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    tail = result.catch(() => undefined);
    return result;
  };
}

const INSERT_RESPONSE =
  'INSERT INTO responses (id, form_id, visitor_id, version_id, version, answers, metadata, quiz_results, started_at, ' +
  'submitted_at, completed_at, completion_seconds, resume_token_hash, unique_visitor) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, NULL, NULL)';

/** Each submission's row and count in a transaction of its own. */
function writePerRequest(db) {
  const transaction = transactions(db);
  return (params, formId) =>
    transaction(async (tx = db) => {
      await p(tx, 'run', INSERT_RESPONSE, params);
      await p(tx, 'run', 'UPDATE forms SET response_count = response_count + 1 WHERE id = ?', [formId]);
    });
}

/** The submissions' rows and counts with group commit (the ceiling). */
function writeGrouped(db) {
  return groupCommit({ transaction: transactions(db), run: (tx, sql, params) => p(tx || db, 'run', sql, params), insertSql: INSERT_RESPONSE });
}

/** `write(params, formId)` commits a submission's row and counts it. */
function submitHandler(db, write) {
  return async (req, res) => {
    const body = req.body;
    if (!body || typeof body !== 'object' || !Array.isArray(body.answers) || body.answers.length > 1000) {
      return res.status(400).json({ error: 'answers: expected an array' });
    }
    if (body.visitor_id !== undefined && (typeof body.visitor_id !== 'string' || body.visitor_id.length > 200)) {
      return res.status(400).json({ error: 'visitor_id: expected a string' });
    }
    const form = await p(db, 'get', 'SELECT id, published, published_version_id FROM forms WHERE slug = ?', [req.params.slug]);
    if (!form || !form.published) return res.status(404).json({ error: 'not found' });
    const rows = await p(db, 'all', 'SELECT id, type, required, properties FROM questions WHERE form_id = ? ORDER BY sort_order', [form.id]);
    const questions = rows.map((q) => ({ id: q.id, type: q.type, required: !!q.required, properties: JSON.parse(q.properties) }));
    const answers = body.answers.map((a) => ({ question_id: a && a.question_id, value: a && a.value !== undefined ? a.value : null }));
    const bad = checkAnswers(questions, answers);
    if (bad) return res.status(400).json({ error: 'answers: invalid', question_ids: bad });
    const now = new Date().toISOString();
    const response = {
      id: randomId('rsp'),
      form_id: form.id,
      visitor_id: body.visitor_id ?? null,
      submitted_at: now,
      completed_at: now,
      metadata: { user_agent: req.get('user-agent') ?? null, referrer: req.get('referer') ?? null },
      answers,
      quiz_results: null,
      version: form.published_version_id ? 1 : null,
      version_id: form.published_version_id,
    };
    await write(
      [response.id, form.id, response.visitor_id, response.version_id, response.version, JSON.stringify(answers), JSON.stringify(response.metadata), now, now, now, null],
      form.id,
    );
    res.status(201).json(response);
  };
}

function createApp(db, { ceiling = false } = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => res.json({ ok: true, ceiling }));
  app.post('/api/v1/public/forms/:slug/responses', express.json({ limit: '1mb' }), submitHandler(db, ceiling ? writeGrouped(db) : writePerRequest(db)));
  if (ceiling) {
    const query = (method, sql, params) => p(db, method, sql, params);
    app.get('/api/v1/forms/:id', cachedGetForm({ query, presentForm, keyPattern: KEY_PATTERN, sha256 }));
    return app;
  }
  app.get('/api/v1/forms/:id', async (req, res) => {
    const auth = req.get('authorization') || '';
    const m = KEY_PATTERN.exec(auth.startsWith('Bearer ') ? auth.slice(7) : '');
    if (!m) return res.status(401).json({ error: 'unauthorized' });
    const key = await p(db, 'get', 'SELECT * FROM api_keys WHERE id = ?', [`key_${m[1]}`]);
    if (!key) return res.status(401).json({ error: 'unauthorized' });
    const stored = Buffer.from(key.secret_hash, 'hex');
    const given = sha256(m[2]);
    if (stored.length !== given.length || !crypto.timingSafeEqual(stored, given)) return res.status(401).json({ error: 'unauthorized' });
    if (key.revoked_at || (key.expires_at && key.expires_at <= new Date().toISOString())) return res.status(401).json({ error: 'unauthorized' });
    const form = await p(db, 'get', 'SELECT * FROM forms WHERE id = ?', [req.params.id]);
    if (!form) return res.status(404).json({ error: 'not found' });
    if (form.owner_id !== key.user_id) return res.status(403).json({ error: 'forbidden' });
    const rows = await p(db, 'all', 'SELECT * FROM questions WHERE form_id = ? ORDER BY sort_order', [form.id]);
    res.json(presentForm(form, rows));
  });
  return app;
}

async function main() {
  const file = process.env.BASELINE_DB;
  const pgUrl = process.env.BASELINE_PG_URL;
  if ((!file && !pgUrl) || !process.env.BASELINE_API_KEY) throw new Error('BASELINE_DB (or BASELINE_PG_URL) and BASELINE_API_KEY are required');
  let db;
  if (pgUrl) {
    db = openPg(pgUrl, process.env.BASELINE_PG_SCHEMA);
    await db.exec(SCHEMA);
  } else {
    db = new sqlite3.Database(file);
    await p(db, 'run', 'PRAGMA journal_mode = WAL');
    await p(db, 'run', 'PRAGMA synchronous = NORMAL');
    await p(db, 'run', 'PRAGMA busy_timeout = 5000');
    await p(db, 'run', 'PRAGMA foreign_keys = ON');
    await new Promise((resolve, reject) => db.exec(SCHEMA, (e) => (e ? reject(e) : resolve())));
  }
  const { n } = await p(db, 'get', 'SELECT count(*) AS n FROM forms');
  if (Number(n) === 0) await seed(db, process.env.BASELINE_API_KEY, Number(process.env.BASELINE_FORMS || 1000));
  const server = createApp(db, { ceiling: process.env.BASELINE_CEILING === '1' }).listen(Number(process.env.PORT || 0), () => {
    console.log(`baseline listening on http://localhost:${server.address().port}`);
  });
  const stop = () => server.close(() => db.close(() => process.exit(0)));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(`baseline could not start: ${e.stack || e}`);
    process.exit(1);
  });
}

module.exports = { formId, INGEST_FORM_ID };
