import test from 'ava';
import type { AnswerTest } from '@formloom/core';
import { makeForm, makeQuestion, makeResponse } from '@formloom/core/testing';
import { createTestDatabase, type TestDatabaseKind } from '../../src/testing';

/*
 * The pair counts' guard (docs/decisions.md, "A coverage row guards incomplete counters"): a form whose responses
 * are not all counted in `answer_pairs` (stored before its migration) gets its filtered summaries from the
 * responses, and `rebuildAnalytics` (`formloom analytics rebuild`) counts them again; a bulk delete takes them
 * back. Checked against the same test written twice, which is always computed from the responses.
 */

for (const kind of ['sqlite', 'postgres'] as TestDatabaseKind[]) {
  test(`${kind}: uncounted responses are scanned until the rebuild counts them; deleteMany takes its counts back`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.close());
    const p = db.placeholder;
    const form = makeForm();
    await db.storage.forms.insert(form);
    const city = makeQuestion(0, { type: 'dropdown', properties: { choices: [{ label: 'Berlin' }, { label: 'Paris' }] } });
    const stars = makeQuestion(1, { type: 'rating', properties: { steps: 5 } });
    const why = makeQuestion(2);
    await db.storage.questions.replaceForForm(form.id, [city, stars, why]);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const answers = [
        { question_id: city.id, value: i % 3 ? 'Berlin' : 'Paris' },
        ...(i % 4 ? [{ question_id: stars.id, value: 1 + (i % 5) }] : []),
        ...(i % 2 ? [{ question_id: why.id, value: `because ${i}` }] : []),
      ];
      const r = makeResponse(form.id, i * 40_000, { answers, ...(i % 5 === 0 ? { completed_at: null, completion_seconds: null } : {}) });
      await db.storage.responses.insert(r);
      ids.push(r.id);
    }
    const tests: AnswerTest[] = [
      { question_id: city.id, op: 'equals', via: 'key', values: ['Berlin'] },
      { question_id: stars.id, op: 'greater_or_equal', via: 'num', values: ['3'] },
    ];
    const sorted = (s: Awaited<ReturnType<typeof db.storage.responses.filteredSummary>>) => ({
      ...s,
      values: [...s.values].sort((a, b) => `${a.question_id} ${a.value}`.localeCompare(`${b.question_id} ${b.value}`)),
    });
    const summary = async (x: AnswerTest, twice = false) => sorted(await db.storage.responses.filteredSummary(form.id, { answers: { match: 'all', tests: twice ? [x, x] : [x] } }));
    const same = async (when: string) => {
      for (const x of tests) t.deepEqual(await summary(x), await summary(x, true), `${when}: ${x.op} ${x.values[0]}`);
    };
    const coverage = async () =>
      Number((await db.raw(`SELECT n FROM answer_pairs WHERE form_id = ${p(1)} AND question_id = '' AND value = '' AND target_id = '' AND target_value = ''`, [form.id]))[0]?.n ?? 0);

    await same('counted as stored');
    t.is(await coverage(), 12);
    t.is((await summary(tests[0]!)).analytics.total, 8);

    // Responses stored before the counters existed: the summaries are the scan's, never the empty counters'.
    await db.raw(`DELETE FROM answer_pairs WHERE form_id = ${p(1)}`, [form.id]);
    await same('before the rebuild');
    t.is((await summary(tests[0]!)).analytics.total, 8);
    await db.storage.responses.rebuildAnalytics(form.id);
    t.is(await coverage(), 12, 'the rebuild counts every response');
    await same('after the rebuild');

    t.is(await db.storage.responses.deleteMany(form.id, ids.slice(0, 5)), 5);
    t.is(await coverage(), 7);
    await same('after a bulk delete');
    t.is((await summary(tests[0]!)).analytics.total, 5);
  });
}
