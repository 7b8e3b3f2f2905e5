import test from 'ava';
import { isBlank, isUploadUrlOf, publicSnapshot, startedAtProblem, type Question } from '../../src/index';

test('started_at: 30 days back and 5 minutes ahead are the edges of the window', (t) => {
  const now = new Date('2026-11-24T12:00:00.000Z');
  const at = (ms: number) => new Date(now.getTime() + ms);
  const DAY = 86_400_000;
  t.is(startedAtProblem(at(-30 * DAY), now), null);
  t.regex(startedAtProblem(at(-30 * DAY - 1), now) ?? '', /at most 30 days before/);
  t.is(startedAtProblem(at(5 * 60_000), now), null);
  t.regex(startedAtProblem(at(5 * 60_000 + 1), now) ?? '', /not be after the submission/);
  t.regex(startedAtProblem(new Date('0000-01-01T00:00:00Z'), now) ?? '', /30 days/);
});

test('upload URLs: only this instance, this form, the upload path shape, no query', (t) => {
  const base = 'https://forms.example/app';
  const good = `${base}/api/v1/public/uploads/frm_1/${'0a'.repeat(16)}/cv.pdf`;
  t.true(isUploadUrlOf(`${base}/`, 'frm_1', good));
  t.false(isUploadUrlOf(base, 'frm_2', good), 'another form');
  t.false(isUploadUrlOf('https://other.example', 'frm_1', good), 'another instance');
  t.false(isUploadUrlOf(base, 'frm_1', `${good}?x=1`));
  t.false(isUploadUrlOf(base, 'frm_1', good.replace('0a', 'zz')));
  t.false(isUploadUrlOf(base, 'frm_1', `${base}.evil.example/api/v1/public/uploads/frm_1/${'0a'.repeat(16)}/cv.pdf`));
});

test('blank: white space and invisible characters only', (t) => {
  for (const s of ['', ' ', '\u200b', '\u200c\u200d', '\u2060', '\ufeff', '\u00a0', '\u3000', '\u3164', '\u00ad']) t.true(isBlank(s), JSON.stringify(s));
  for (const s of ['a', '\u200ba', '日本', '0', '-']) t.false(isBlank(s), JSON.stringify(s));
});

test('public snapshot: a field nobody listed stays private, at every level', (t) => {
  const q = (over: Partial<Question>): Question => ({
    id: 'q1', type: 'multiple_choice', title: 'T', description: null, required: false, order: 0,
    properties: {}, logic_jumps: [], validations: { min_length: 1 }, ...over,
  });
  const out = publicSnapshot({
    id: 'frm_1', title: 'F', mode: 'standard', webhook_url: 'https://hook', some_future_field: 'private',
    quiz_settings: { endings: [{ id: 'e', title: 'E', min_score: 1 }] },
    questions: [
      q({ properties: { choices: [{ id: 'c', label: 'L', score: 3, ending_id: 'e', future: 1 }], correct_answer: 'L', points: 2, future_prop: 1 } }),
      q({ id: 'q2', type: 'email_step', properties: { recipient: 'boss@example.com', subject: 'S' } }),
      q({ id: 'q3', type: 'some_future_type', properties: { anything: 1 } }),
    ],
  });
  t.deepEqual(out, {
    id: 'frm_1', title: 'F', mode: 'standard', quiz_settings: null,
    questions: [
      { id: 'q1', type: 'multiple_choice', title: 'T', description: null, required: false, order: 0, logic_jumps: [], validations: { min_length: 1 }, properties: { choices: [{ id: 'c', label: 'L' }] } },
      { id: 'q2', type: 'email_step', title: 'T', description: null, required: false, order: 0, logic_jumps: [], validations: { min_length: 1 }, properties: {} },
      { id: 'q3', type: 'some_future_type', title: 'T', description: null, required: false, order: 0, logic_jumps: [], validations: { min_length: 1 }, properties: {} },
    ],
  });
});
