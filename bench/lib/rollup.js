'use strict';
// The analytics rollup of a form seeded by direct SQL (bench/scenarios/stored-responses.js).

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
      'FROM responses WHERE form_id = ? GROUP BY substr(submitted_at, 1, 10)',
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
  for (const [key, c] of counters) {
    const [day, question] = key.split('\u0000');
    await q(
      'run',
      'INSERT INTO question_days (form_id, day, question_id, answered, furthest) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (form_id, day, question_id) DO UPDATE SET answered = answered + excluded.answered, furthest = furthest + excluded.furthest',
      [form.id, day, question, c.answered, c.furthest],
    );
  }
  // The answer distributions (question_values), by the adapter's own keys, as submissions would have made them.
  await q('run', 'DELETE FROM question_values WHERE form_id = ?', [form.id]);
  for (const [key, n] of values) {
    const [day, question, value] = key.split('\u0000');
    await q('run', 'INSERT INTO question_values (form_id, day, question_id, value, count) VALUES (?, ?, ?, ?, ?)', [form.id, day, question, value, n]);
  }
}

module.exports = { fillRollup };
