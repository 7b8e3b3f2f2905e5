import type { QuestionValueCount } from '../../ports/storage/responses';
import { at, makeForm, makeQuestion, makeResponse, type StorageTest, uid } from './fixtures';

const DAY = 86_400;

const sorted = (xs: QuestionValueCount[]) =>
  [...xs].sort((a, b) => (a.question_id + a.value < b.question_id + b.value ? -1 : a.question_id + a.value > b.question_id + b.value ? 1 : 0));

/** responses: the answer distributions (`questionValues`) follow every write, by day, and survive a rebuild. */
export function questionValueTests(test: StorageTest): void {
  test('responses: questionValues counts bounded answers per question and day, follows completion, deletion and rebuild', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const choice = makeQuestion(0, { type: 'multiple_choice', properties: { choices: [{ label: 'A' }, { label: 'B' }], allow_multiple: true } });
    const yes = makeQuestion(1, { type: 'yes_no' });
    const num = makeQuestion(2, { type: 'number' });
    const text = makeQuestion(3, { type: 'short_text' });
    await db.storage.questions.replaceForForm(form.id, [choice, yes, num, text]);
    const answers = (c: string[], y: boolean, n: number) => [
      { question_id: choice.id, value: c },
      { question_id: yes.id, value: y },
      { question_id: num.id, value: n },
      { question_id: text.id, value: 'free text is not counted' },
    ];
    const first = makeResponse(form.id, 10, { answers: answers(['A', 'B'], true, 12345) });
    await db.storage.responses.insert(first);
    await db.storage.responses.insert(makeResponse(form.id, DAY + 10, { answers: answers(['A'], false, 0.5) }));
    const partial = makeResponse(form.id, DAY + 20, { answers: [], completed_at: null, completion_seconds: null, resume_token_hash: 'ab'.repeat(32) });
    await db.storage.responses.insert(partial);
    await db.storage.transaction((tx) =>
      tx.responses.updatePartial(form.id, partial.id, {
        answers: answers(['B'], true, 7), completed_at: at(DAY + 30), completion_seconds: 5, quiz_results: null, unique_visitor: null, submitted_at: at(DAY + 30),
      }),
    );
    const all = sorted(await db.storage.responses.questionValues(form.id));
    t.deepEqual(all, sorted([
      { question_id: choice.id, value: 'A', count: 2 },
      { question_id: choice.id, value: 'B', count: 2 },
      { question_id: yes.id, value: 'true', count: 2 },
      { question_id: yes.id, value: 'false', count: 1 },
      { question_id: num.id, value: '12300', count: 1 },
      { question_id: num.id, value: '0.5', count: 1 },
      { question_id: num.id, value: '7', count: 1 },
    ]), 'text answers are not counted; numbers keep 3 significant digits');
    const day2 = at(DAY).slice(0, 10);
    t.deepEqual(sorted(await db.storage.responses.questionValues(form.id, day2, day2)).filter((c) => c.question_id === yes.id), sorted([
      { question_id: yes.id, value: 'true', count: 1 },
      { question_id: yes.id, value: 'false', count: 1 },
    ]), 'a day range reads those days only');
    await db.storage.responses.rebuildAnalytics(form.id);
    t.deepEqual(sorted(await db.storage.responses.questionValues(form.id)), all, 'a rebuild recounts the same');
    t.true(await db.storage.responses.delete(form.id, first.id));
    const after = await db.storage.responses.questionValues(form.id);
    t.deepEqual(after.filter((c) => c.question_id === choice.id).sort((a, b) => (a.value < b.value ? -1 : 1)), [
      { question_id: choice.id, value: 'A', count: 1 },
      { question_id: choice.id, value: 'B', count: 1 },
    ]);
    t.false(after.some((c) => c.value === '12300'), 'zero counts are left out');
    t.deepEqual(await db.storage.responses.questionValues(uid('frm')), []);
  });

  test('responses: questionRangeValues sums the counters of the given questions over each range of days', async (t, db) => {
    const form = makeForm();
    await db.storage.forms.insert(form);
    const score = makeQuestion(0, { type: 'opinion_scale', properties: { min: 0, max: 10 } });
    const other = makeQuestion(1, { type: 'yes_no' });
    await db.storage.questions.replaceForForm(form.id, [score, other]);
    const answer = (n: number) => [{ question_id: score.id, value: n }, { question_id: other.id, value: true }];
    await db.storage.responses.insert(makeResponse(form.id, 10, { answers: answer(10) }));
    await db.storage.responses.insert(makeResponse(form.id, DAY + 10, { answers: answer(10) }));
    await db.storage.responses.insert(makeResponse(form.id, DAY + 20, { answers: answer(3) }));
    await db.storage.responses.insert(makeResponse(form.id, 3 * DAY + 10, { answers: answer(9) }));
    await db.storage.responses.insert(makeResponse(form.id, 5 * DAY + 10, { answers: answer(1) }));
    const [d1, d2, d4, d5, d6] = [0, 1, 3, 4, 5].map((n) => at(n * DAY).slice(0, 10));
    const rows = await db.storage.responses.questionRangeValues(form.id, [score.id], [{ first: d1!, last: d2! }, { first: d4!, last: d5! }, { first: '2999-01-01', last: '2999-01-07' }]);
    const key = (r: { range: number; value: string; count: number }) => `${r.range} ${r.value} ${r.count}`;
    t.deepEqual(rows.map(key).sort(), ['0 10 2', '0 3 1', '1 9 1'], 'summed per range, only that question; a day outside every range (the 6th) is left out');
    t.true(rows.every((r) => r.question_id === score.id));
    t.deepEqual((await db.storage.responses.questionRangeValues(form.id, [score.id], [{ first: d6!, last: d6! }])).map(key), ['0 1 1']);
    t.deepEqual(await db.storage.responses.questionRangeValues(form.id, [], [{ first: d1!, last: d2! }]), []);
    t.deepEqual(await db.storage.responses.questionRangeValues(form.id, [score.id], []), []);
  });
}
