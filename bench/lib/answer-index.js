'use strict';
// The answers index, the pair counts and the funnel's counters of a form seeded by direct SQL
// (bench/scenarios/filters.js), on SQLite, made by the storage adapter's own functions (storage-typeorm
// repositories/answer-index.ts, answer-pairs.ts and funnel.ts) from the stored rows, in the seeding's
// transaction: what `formloom analytics rebuild --form` writes for responses stored before the index existed.
// Made for a million responses in minutes rather than half an hour: the responses are read in id order, so
// the index's primary key is appended to, not written at random places, and its two secondary indexes are
// dropped first and built once at the end (a sorted build), as a bulk load into any B-tree is done.
const DIST = '../../packages/storage-typeorm/dist/src/repositories';
const { answerRows } = require(`${DIST}/answer-index`);
const { addPairDeltas } = require(`${DIST}/answer-pairs`);
const { addFunnelDeltas } = require(`${DIST}/funnel`);
const { QuestionOrder } = require(`${DIST}/question-days`);

const p = (db, method, sql, params = []) =>
  new Promise((resolve, reject) => db[method](sql, params, (err, res) => (err ? reject(new Error(`${err.message} (${sql.slice(0, 60)})`)) : resolve(res))));

const PAGE = 5000;
const ROWS = 150; // rows per INSERT: 6 parameters each
const PAIR_ROWS = 100; // 9 parameters each
const INDEX_COLUMNS = 'response_id, question_id, value, form_id, num, submitted_at';

/**
 * Writes the answers index, the pair counts and the funnel's counters of `form`'s stored responses on `db`
 * (a sqlite3 Database inside the caller's write transaction: stored-responses.js's seeding), with `views`
 * and `starts`. Resolves with the index rows and pair counters written.
 */
async function writeAnswerIndex(db, form, { views = 0, starts = 0 } = {}) {
  const order = new QuestionOrder();
  form.questions.forEach((q, i) => {
    order.set(q.id, i);
    order.kinds.set(q.id, q.type);
  });
  // The secondary indexes as the migration made them, rebuilt after the load.
  const secondary = await p(db, 'all', "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'response_answers' AND sql IS NOT NULL");
  for (const { sql } of secondary) await p(db, 'run', `DROP INDEX ${/CREATE (?:UNIQUE )?INDEX ("[^"]+"|\S+)/.exec(sql)[1]}`);
  let indexed = 0;
  const insert = db.prepare(`INSERT INTO response_answers (${INDEX_COLUMNS}) VALUES ${Array(ROWS).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`);
  const funnel = new Map();
  const pairs = new Map();
  try {
    const pending = [];
    const flush = async (all) => {
      while (pending.length >= ROWS || (all && pending.length)) {
        const chunk = pending.splice(0, ROWS);
        if (chunk.length === ROWS) await new Promise((res, rej) => insert.run(chunk.flat(), (e) => (e ? rej(e) : res())));
        else await p(db, 'run', `INSERT INTO response_answers (${INDEX_COLUMNS}) VALUES ${Array(chunk.length).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`, chunk.flat());
        indexed += chunk.length;
      }
    };
    let after = '';
    for (;;) {
      const rows = await p(db, 'all', `SELECT id, form_id, submitted_at, answers, version, completed_at, completion_seconds FROM responses WHERE id > ? AND form_id = ? ORDER BY id LIMIT ${PAGE}`, [after, form.id]);
      if (!rows.length) break;
      for (const r of rows) {
        r.answers = JSON.parse(r.answers);
        pending.push(...answerRows(r, order));
        addFunnelDeltas(funnel, r, order, 1);
        addPairDeltas(pairs, r, order, 1);
      }
      await flush(false);
      after = rows[rows.length - 1].id;
    }
    await flush(true);
  } finally {
    await new Promise((res) => insert.finalize(res));
  }
  for (const { sql } of secondary) await p(db, 'run', sql);
  const counters = [...funnel].map(([key, n]) => [form.id, ...key.split('\u0000'), n]);
  counters.push([form.id, String(form.version), '$views', views], [form.id, String(form.version), '$starts', starts]);
  for (const c of counters) {
    await p(db, 'run', 'INSERT INTO response_funnel (form_id, version, step, count) VALUES (?, ?, ?, ?) ON CONFLICT (form_id, version, step) DO UPDATE SET count = response_funnel.count + excluded.count', [c[0], Number(c[1]), c[2], c[3]]);
  }
  // The deltas are grouped by filter, then by target (answer-pairs.ts, PairDeltas): a row's key is the two joined.
  const pairRows = [];
  for (const [filter, side] of pairs) {
    for (const [target, e] of side) pairRows.push([form.id, ...(filter + target).split('\u0000'), e.n, e.completed, e.seconds_sum, e.seconds_count]);
  }
  for (let i = 0; i < pairRows.length; i += PAIR_ROWS) {
    const chunk = pairRows.slice(i, i + PAIR_ROWS);
    await p(
      db,
      'run',
      `INSERT INTO answer_pairs (form_id, question_id, value, target_id, target_value, n, completed, seconds_sum, seconds_count) VALUES ${Array(chunk.length).fill(`(${Array(9).fill('?').join(', ')})`).join(', ')}`,
      chunk.flat(),
    );
  }
  return { indexed, pairs: pairRows.length };
}

module.exports = { writeAnswerIndex };
