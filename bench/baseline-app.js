'use strict';
// The baseline: a bare Express 5 + sqlite3 app answering GET /api/v1/forms/:id with hand-written queries,
// on the same data shape as Formloom (users, api_keys with a SHA-256 hashed secret, forms, questions).
// It is what "fast" looks like on this machine; bench/run.js compares Formloom's GET against it.
//
// Env: PORT, BASELINE_DB (SQLite file), BASELINE_API_KEY (`fl_<suffix>_<64 hex>`), BASELINE_FORMS (count).
// Seeds itself when the database is empty. Form ids are `formId(i)`, exported for the orchestrator.
const crypto = require('node:crypto');
const express = require('express');
const sqlite3 = require('sqlite3');
const { questions: benchQuestions, formBody } = require('./scenarios/forms');

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
`;

const p = (db, method, sql, params = []) =>
  new Promise((resolve, reject) => db[method](sql, params, (err, res) => (err ? reject(err) : resolve(res))));

async function seed(db, apiKey, count) {
  const m = KEY_PATTERN.exec(apiKey);
  if (!m) throw new Error('BASELINE_API_KEY must look like fl_<suffix>_<64 hex>');
  const now = new Date().toISOString();
  const userId = 'usr_benchbaseline0000000';
  const options = {};
  for (const f of OPTION_FIELDS) if (f !== 'theme_color' && f !== 'background_color') options[f] = DEFAULTS[f] ?? null;
  await p(db, 'run', 'BEGIN');
  await p(db, 'run', 'INSERT INTO users VALUES (?, ?, ?, NULL, NULL, ?, 1, ?, ?)', [userId, 'bench@example.com', 'bench@example.com', 'pro', now, now]);
  await p(db, 'run', 'INSERT INTO api_keys VALUES (?, ?, ?, ?, NULL, ?, NULL, NULL)', [`key_${m[1]}`, userId, sha256(m[2]).toString('hex'), 'forms', now]);
  for (let i = 0; i < count; i++) {
    const body = formBody(i);
    const id = formId(i);
    await p(db, 'run', 'INSERT INTO forms VALUES (?, ?, NULL, ?, ?, ?, ?, 0, 0, NULL, 0, ?, ?, ?, ?, ?)', [
      id, userId, crypto.randomBytes(5).toString('hex'), body.title, body.title.toLowerCase(), body.description,
      body.theme_color, '#0a0a0a', JSON.stringify(options), now, now,
    ]);
    let order = 0;
    for (const q of benchQuestions()) {
      await p(db, 'run', 'INSERT INTO questions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        id, `q_${crypto.randomBytes(10).toString('hex')}`, q.type, q.title, q.description ?? null, q.required ? 1 : 0, order++,
        JSON.stringify(q.properties), '[]', '{}',
      ]);
    }
  }
  await p(db, 'run', 'COMMIT');
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

function createApp(db) {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => res.json({ ok: true }));
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
  if (!file || !process.env.BASELINE_API_KEY) throw new Error('BASELINE_DB and BASELINE_API_KEY are required');
  const db = new sqlite3.Database(file);
  await p(db, 'run', 'PRAGMA journal_mode = WAL');
  await p(db, 'run', 'PRAGMA synchronous = NORMAL');
  await new Promise((resolve, reject) => db.exec(SCHEMA, (e) => (e ? reject(e) : resolve())));
  const { n } = await p(db, 'get', 'SELECT count(*) AS n FROM forms');
  if (n === 0) await seed(db, process.env.BASELINE_API_KEY, Number(process.env.BASELINE_FORMS || 1000));
  const server = createApp(db).listen(Number(process.env.PORT || 0), () => {
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

module.exports = { formId };
