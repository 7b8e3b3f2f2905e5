'use strict';
// The analytics rollup of a form seeded by direct SQL (bench/scenarios/stored-responses.js), on SQLite or
// PostgreSQL: `q(method, sql, params)` runs one statement with `?` placeholders on the seeding transaction.

/**
 * The analytics rollup of the seeded form, in the seeding transaction, as Formloom keeps it
 * (storage-typeorm repositories/response-days.ts and question-days.ts): the per-day counts by the same
 * recount `formloom analytics rebuild` runs, and the per-question counters from the rows' answers (every
 * answer `answersFor` makes is non-empty; the furthest is the last one, answers follow question order).
 */
const { ALL_TIME, valueKeys } = require('../../packages/storage-typeorm/dist/src/repositories/question-values');

async function fillRollup(q, form, count, rowOf) {
  const seconds = 'CASE WHEN completed_at IS NOT NULL THEN completion_seconds END';
  await q('run', 'DELETE FROM response_days WHERE form_id = ?', [form.id]);
  await q(
    'run',
    'INSERT INTO response_days (form_id, day, total, completed, seconds_sum, seconds_count) ' +
      `SELECT form_id, substr(submitted_at, 1, 10), COUNT(*), COUNT(completed_at), COALESCE(SUM(${seconds}), 0), COUNT(${seconds}) ` +
      'FROM responses WHERE form_id = ? GROUP BY form_id, substr(submitted_at, 1, 10)',
    [form.id],
  );
  const counters = new Map();
  const values = new Map();
  const kinds = new Map(form.questions.map((q) => [q.id, q.type]));
  for (let i = 0; i < count; i++) {
    const row = rowOf(i);
    const day = row[8].slice(0, 10);
    const answers = JSON.parse(row[5]);
    for (const a of answers) {
      for (const v of valueKeys(kinds.get(a.question_id), a.value)) {
        for (const d of [day, ALL_TIME]) {
          const key = `${d}\u0000${a.question_id}\u0000${v}`;
          values.set(key, (values.get(key) ?? 0) + 1);
        }
      }
    }
    answers.forEach((a, k) => {
      const key = `${day}\u0000${a.question_id}`;
      const c = counters.get(key) ?? { answered: 0, furthest: 0 };
      c.answered++;
      if (k === answers.length - 1) c.furthest++;
      counters.set(key, c);
    });
  }
  const dayRows = [...counters].map(([key, c]) => [form.id, ...key.split('\u0000'), c.answered, c.furthest]);
  // Qualified on the left of `+`: PostgreSQL finds a bare `answered` ambiguous with `excluded.answered`.
  await insertRows(
    q,
    'question_days (form_id, day, question_id, answered, furthest)',
    dayRows,
    ' ON CONFLICT (form_id, day, question_id) DO UPDATE SET answered = question_days.answered + excluded.answered, ' +
      'furthest = question_days.furthest + excluded.furthest',
  );
  // The answer distributions (question_values), by the adapter's own keys, as submissions would have made them.
  await q('run', 'DELETE FROM question_values WHERE form_id = ?', [form.id]);
  await insertRows(q, 'question_values (form_id, day, question_id, value, count)', [...values].map(([key, n]) => [form.id, ...key.split('\u0000'), n]));
}

/** Multi-row INSERTs of `rows` (arrays of one length) into `into` (table and columns): one round trip per 200 rows. */
async function insertRows(q, into, rows, tail = '') {
  const ROWS = 200;
  for (let i = 0; i < rows.length; i += ROWS) {
    const chunk = rows.slice(i, i + ROWS);
    const tuple = `(${chunk[0].map(() => '?').join(', ')})`;
    await q('run', `INSERT INTO ${into} VALUES ${chunk.map(() => tuple).join(', ')}${tail}`, chunk.flat());
  }
}

module.exports = { fillRollup };
