'use strict';
// The answers index and the funnel's counters of a form seeded by direct SQL (bench/scenarios/filters.js), on
// SQLite, written by the storage adapter's own functions (storage-typeorm repositories/answer-index.ts and
// funnel.ts) from the stored rows, in the seeding's transaction: what `formloom analytics rebuild --form`
// writes for responses stored before the answers index existed.
const DIST = '../../packages/storage-typeorm/dist/src/repositories';
const { answerRows } = require(`${DIST}/answer-index`);
const { addFunnelDeltas } = require(`${DIST}/funnel`);
const { QuestionOrder } = require(`${DIST}/question-days`);

const p = (db, method, sql, params = []) =>
  new Promise((resolve, reject) => db[method](sql, params, (err, res) => (err ? reject(new Error(`${err.message} (${sql.slice(0, 60)})`)) : resolve(res))));

const PAGE = 5000;
const ROWS = 150; // rows per INSERT: 6 parameters each

/**
 * Writes the answers index and the funnel's counters of `form`'s stored responses on `db` (a sqlite3
 * Database inside the caller's write transaction: stored-responses.js's seeding), with `views` and `starts`.
 * Resolves with the index rows written.
 */
async function writeAnswerIndex(db, form, { views = 0, starts = 0 } = {}) {
  const order = new QuestionOrder();
  form.questions.forEach((q, i) => {
    order.set(q.id, i);
    order.kinds.set(q.id, q.type);
  });
  let indexed = 0;
  const insert = db.prepare(
    `INSERT INTO response_answers (response_id, question_id, value, form_id, num, submitted_at) VALUES ${Array(ROWS).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`,
  );
  try {
    const funnel = new Map();
    const pending = [];
    const flush = async (all) => {
      while (pending.length >= ROWS || (all && pending.length)) {
        const chunk = pending.splice(0, ROWS);
        if (chunk.length === ROWS) await new Promise((res, rej) => insert.run(chunk.flat(), (e) => (e ? rej(e) : res())));
        else await p(db, 'run', `INSERT INTO response_answers (response_id, question_id, value, form_id, num, submitted_at) VALUES ${Array(chunk.length).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`, chunk.flat());
        indexed += chunk.length;
      }
    };
    let after = 0;
    for (;;) {
      const rows = await p(db, 'all', `SELECT rowid AS r, id, form_id, submitted_at, answers, version, completed_at, completion_seconds FROM responses WHERE form_id = ? AND rowid > ? ORDER BY rowid LIMIT ${PAGE}`, [form.id, after]);
      if (!rows.length) break;
      for (const r of rows) {
        pending.push(...answerRows(r, order));
        addFunnelDeltas(funnel, r, order, 1);
      }
      await flush(false);
      after = rows[rows.length - 1].r;
    }
    await flush(true);
    const counters = [...funnel].map(([key, n]) => [form.id, ...key.split('\u0000'), n]);
    counters.push([form.id, String(form.version), '$views', views], [form.id, String(form.version), '$starts', starts]);
    for (const c of counters) {
      await p(db, 'run', 'INSERT INTO response_funnel (form_id, version, step, count) VALUES (?, ?, ?, ?) ON CONFLICT (form_id, version, step) DO UPDATE SET count = response_funnel.count + excluded.count', [c[0], Number(c[1]), c[2], c[3]]);
    }
  } finally {
    await new Promise((res) => insert.finalize(res));
  }
  return indexed;
}

module.exports = { writeAnswerIndex };
