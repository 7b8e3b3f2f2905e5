import test from 'ava';
import { fillRecalls, formatRecallValue, malformedRecalls, parseRecalls, recallParts, recallToken, renameRecalls } from '../../src/logic/index';
import { recallBlock } from '../../src/forms/recall-checks';
import { recalledVariables } from '../../src/logic/recall-texts';
import { publicSnapshot } from '../../src/forms/public-view';
import type { Question } from '../../src/domain/types';

const q = (id: string, title: string, extra: Partial<Question> = {}): Question => ({
  id,
  type: 'short_text',
  title,
  description: null,
  required: false,
  order: 0,
  properties: {},
  logic_jumps: [],
  validations: {},
  ...extra,
});

test('the three kinds of recall, with and without a fallback; other braces are text', (t) => {
  const rs = parseRecalls('Hi {answer.q_1|there}, from {hidden.utm_source} with {var.score} {respondent.email} {{name}} {answer.}');
  t.deepEqual(
    rs.map((r) => [r.kind, r.name, r.fallback, r.raw]),
    [
      ['answer', 'q_1', 'there', '{answer.q_1|there}'],
      ['hidden', 'utm_source', '', '{hidden.utm_source}'],
      ['var', 'score', '', '{var.score}'],
    ],
  );
  t.deepEqual(parseRecalls(null), []);
  t.deepEqual(malformedRecalls('{answer.} and {var.total and {hidden.a|x{y}} but {answer.q_1} is fine'), ['{answer.}', '{var.total', '{hidden.a|x{y}']);
  t.deepEqual(recallParts('A {answer.q|x} B'), ['A ', { kind: 'answer', name: 'q', fallback: 'x', raw: '{answer.q|x}', index: 2 }, ' B']);
  t.is(recallToken('answer', 'q_1', ' the {best} '), '{answer.q_1|the best}');
  t.is(recallToken('var', 'score'), '{var.score}');
});

test('filling: the value, else the fallback, else nothing; values encoded only where asked', (t) => {
  const values: Record<string, string> = { 'answer.a': 'Ada & <b>Bob</b>', 'hidden.src': '' };
  const get = (r: { kind: string; name: string }) => values[`${r.kind}.${r.name}`];
  t.is(fillRecalls('Hi {answer.a|there}!', get), 'Hi Ada & <b>Bob</b>!', 'text as it is: the page writes it as text, never HTML');
  t.is(fillRecalls('Hi {answer.b|there}! {hidden.src}.', get), 'Hi there! .');
  t.is(fillRecalls('https://x.test/?n={answer.a}&s={hidden.src|web}', get, encodeURIComponent), 'https://x.test/?n=Ada%20%26%20%3Cb%3EBob%3C%2Fb%3E&s=web');
  t.is(renameRecalls('{answer.new_1|x} {answer.q_2} {hidden.new_1}', new Map([['new_1', 'q_9']])), '{answer.q_9|x} {answer.q_2} {hidden.new_1}');
});

test('values read as a person writes them: lists, numbers and dates in the language, yes/no in words, files by name', (t) => {
  t.is(formatRecallValue('  Ada '), 'Ada');
  t.is(formatRecallValue(['Red', 'Blue', 'Green'], { locale: 'en' }), 'Red, Blue, and Green');
  t.is(formatRecallValue(1234.5, { locale: 'en' }), '1,234.5');
  t.is(formatRecallValue(1234.5, { locale: 'de' }), '1.234,5');
  t.is(formatRecallValue('2024-03-05', { locale: 'en' }), 'March 5, 2024');
  t.is(formatRecallValue(true, { yes: 'Oui', no: 'Non' }), 'Oui');
  t.is(formatRecallValue(false), 'No');
  t.is(formatRecallValue({ url: '/u/1', name: 'cv.pdf' }), 'cv.pdf');
  t.is(formatRecallValue({ first_name: 'Ada', last_name: 'Lovelace', email: '' }), 'Ada, Lovelace');
  t.is(formatRecallValue(null), '');
  t.is(formatRecallValue(Number.NaN), '');
});

test('publish checks: a later question, itself, a deleted question, unknown hidden fields and variables, a broken token', (t) => {
  const qs = [q('q_a', 'Name'), q('q_b', 'Hello {answer.q_a|you}, age?'), q('q_c', 'Colour')];
  const ok = { hidden_fields: ['src'], variables: { score: 0 }, thank_you_title: 'Thanks {answer.q_c} {hidden.src} {var.score}', redirect_url: 'https://x.test/?n={answer.q_b}' };
  t.is(recallBlock(ok, qs), null, 'earlier answers in questions; any answer after the last question');

  const later = recallBlock({}, [q('q_a', 'Hi {answer.q_c}'), q('q_b', 'B', { description: 'You said {answer.q_b}' }), q('q_c', 'C')]);
  t.is(later?.reason, 'recall_later_question');
  t.deepEqual(later?.question_ids, ['q_a', 'q_b'], 'every question failing the same reason');
  t.regex(later!.message, /Question 1's title recalls question 3 \("C"\), which comes later/);

  const self = recallBlock({}, [q('q_a', 'A', { description: 'again {answer.q_a}' })]);
  t.regex(self!.message, /Question 1's description recalls itself/);

  const welcome = recallBlock({ welcome_title: 'Hi {answer.q_a}' }, [q('q_a', 'A')]);
  t.is(welcome?.reason, 'recall_later_question');
  t.deepEqual(welcome?.question_ids, []);
  t.regex(welcome!.message, /welcome title.*no answer is given before the welcome screen/);

  const choice = recallBlock({}, [q('q_a', 'A'), q('q_b', 'B', { type: 'multiple_choice', properties: { choices: [{ label: 'Yes' }, { label: 'Not {answer.q_x}' }] } })]);
  t.is(choice?.reason, 'recall_deleted_question');
  t.regex(choice!.message, /Question 2's choice 2 recalls a question that is no longer in the form/);

  t.is(recallBlock({ hidden_fields: ['a'] }, [q('q_a', '{hidden.b}')])?.reason, 'recall_unknown_hidden_field');
  t.is(recallBlock({ variables: { a: 1 } }, [q('q_a', '{var.b}')])?.reason, 'recall_unknown_variable');
  const broken = recallBlock({}, [q('q_a', 'Hi {answer.q_b later')]);
  t.is(broken?.reason, 'recall_malformed');
  t.is(broken?.upgrade_required, false);
});

test('the public view shows the starting values of recalled variables only', (t) => {
  const snap = { variables: { score: 10, secret: 'x' }, thank_you_title: 'You scored {var.score}', questions: [q('q_a', 'A {var.missing}')] };
  t.deepEqual(recalledVariables(snap, snap.questions), ['score', 'missing']);
  t.deepEqual(publicSnapshot(snap).variables, { score: 10 });
  t.false('variables' in publicSnapshot({ variables: { score: 1 }, questions: [] }));
});
