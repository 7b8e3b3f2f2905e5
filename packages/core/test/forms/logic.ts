import test from 'ava';
import { conditionHolds, formLogicProblem, jumpsProblem, validationProblem, validationsProblem, variablesProblem, visiblePath } from '../../src/logic/index';

const qs = [
  { id: 'a', logic_jumps: [{ conditions: [{ op: 'equals', value: 'skip' }], to: 'c' }, { conditions: [{ op: 'equals', value: 'stop' }], to: 'end' }] },
  { id: 'b' },
  { id: 'c', logic_jumps: [{ match: 'any', conditions: [{ op: 'greater_than', value: 10 }, { field: 'hidden:vip', op: 'equals', value: 'yes' }], to: 'e' }] },
  { id: 'd' },
  { id: 'e' },
];

test('the path follows the first matching jump, the next question otherwise, and ends at end', (t) => {
  t.deepEqual(visiblePath(qs, [], { answers: {} }), ['a', 'b', 'c', 'd', 'e']);
  t.deepEqual(visiblePath(qs, [], { answers: { a: 'SKIP' } }), ['a', 'c', 'd', 'e'], 'text compares without case');
  t.deepEqual(visiblePath(qs, [], { answers: { a: 'stop' } }), ['a']);
  t.deepEqual(visiblePath(qs, [], { answers: { a: 'skip', c: 11 } }), ['a', 'c', 'e']);
  t.deepEqual(visiblePath(qs, [], { answers: { a: 'skip', c: 3 }, hidden: { vip: 'yes' } }), ['a', 'c', 'e'], 'any: one condition is enough');
  t.deepEqual(visiblePath(qs, [{ conditions: [{ field: 'hidden:vip', op: 'is_answered' }], to: 'd' }], { answers: {}, hidden: { vip: 'x' } }), ['d', 'e']);
});

test('jumps to unknown or earlier questions are ignored when walking stored data', (t) => {
  const bad = [{ id: 'a', logic_jumps: [{ to: 'a' }] }, { id: 'b', logic_jumps: [{ to: 'zzz' }] }, { id: 'c' }];
  t.deepEqual(visiblePath(bad, [], { answers: {} }), ['a', 'b', 'c']);
});

test('conditions by operator and answer shape', (t) => {
  const ctx = (v: unknown) => ({ answers: { q: v } });
  const holds = (op: any, v: unknown, value?: any) => conditionHolds({ op, value }, 'q', ctx(v));
  t.true(holds('equals', ['Red', 'Blue'], 'blue'));
  t.false(holds('equals', ['Red'], 'Blue'));
  t.true(holds('not_equals', null, 'x'), 'an unanswered field is not equal to anything');
  t.true(holds('equals', false, false));
  t.true(holds('equals', 5, '5'));
  t.true(holds('contains', 'Hello world', 'WORLD'));
  t.true(holds('not_contains', 'Hello', 'bye'));
  t.true(holds('begins_with', 'Hello', 'he'));
  t.true(holds('ends_with', 'Hello', 'LO'));
  t.true(holds('greater_or_equal', 5, 5));
  t.true(holds('less_than', '2024-01-01', '2024-06-01'), 'dates compare as text');
  t.false(holds('greater_than', null, 1));
  t.false(holds('greater_than', 'abc', 1));
  t.true(holds('is_answered', { a: 'x', b: null }));
  t.true(holds('is_not_answered', { a: '', b: null }));
  t.true(holds('contains', { url: 'u', name: 'cv.pdf' }, '.pdf'), 'a file compares by name');
});

test('validations of answers', (t) => {
  t.is(validationProblem({ min_length: 3 }, 'ab'), 'must be at least 3 characters');
  t.is(validationProblem({ max_length: 2 }, '😀😀'), null, 'code points, not UTF-16 units');
  t.is(validationProblem({ pattern: '[A-Z]{2}\\d+' }, 'AB12'), null);
  t.is(validationProblem({ pattern: '[A-Z]{2}\\d+' }, 'xAB12'), 'is not in the expected format', 'the whole answer must match');
  t.is(validationProblem({ pattern: '\\d+', pattern_message: 'digits only' }, 'a'), 'digits only');
  t.is(validationProblem({ min_value: 1, max_value: 5 }, 6), 'must be at most 5');
  t.is(validationProblem({ min_selections: 2 }, ['a']), 'choose at least 2');
  t.is(validationProblem({ max_selections: 1 }, ['a', 'b']), 'choose at most 1');
  t.is(validationProblem({ min_length: 3 }, ''), null, 'an empty answer is for `required` to judge');
  t.is(validationProblem(undefined, 'x'), null);
});

test('logic stored on a form is checked: targets, ops, values, and validations by type', (t) => {
  const ids = ['q0', 'q1', 'q2'];
  t.is(jumpsProblem([{ to: 'q2' }, { to: 'end', conditions: [{ op: 'is_answered' }] }], 'questions.0.logic_jumps', 0, ids), null);
  t.deepEqual(jumpsProblem([{ to: 'q0' }], 'questions.1.logic_jumps', 1, ids), { field: 'questions.1.logic_jumps.0.to', message: 'must be a later question: q0 comes earlier' });
  t.deepEqual(jumpsProblem([{ to: 'q1' }], 'questions.1.logic_jumps', 1, ids)?.field, 'questions.1.logic_jumps.0.to');
  t.deepEqual(jumpsProblem([{ to: 'nope' }], 'x', 0, ids), { field: 'x.0.to', message: 'names no question of this form: nope' });
  t.is(jumpsProblem([{ to: 'q1', conditions: [{ op: 'is', value: 1 }] }], 'x', 0, ids)?.field, 'x.0.conditions.0.op');
  t.is(jumpsProblem([{ to: 'q1', conditions: [{ op: 'equals' }] }], 'x', 0, ids)?.field, 'x.0.conditions.0.value');
  t.is(jumpsProblem([{ to: 'q1', conditions: [{ op: 'equals', value: 1, field: 'ghost' }] }], 'x', 0, ids)?.field, 'x.0.conditions.0.field');
  t.is(jumpsProblem([{ to: 'q1', when: 1 }], 'x', 0, ids)?.field, 'x.0.when');
  t.is(validationsProblem('short_text', { min_length: 2, pattern: '[a-z]+' }, 'v'), null);
  t.is(validationsProblem('short_text', { min_value: 2 }, 'v')?.field, 'v.min_value');
  t.is(validationsProblem('short_text', { pattern: '([' }, 'v')?.message, 'is not a valid regular expression');
  t.is(validationsProblem('number', { min_value: 5, max_value: 1 }, 'v')?.message, 'must not exceed max_value');
  t.is(validationsProblem('yes_no', { min_length: 1 }, 'v')?.message, 'yes_no questions take no validations');
  t.is(formLogicProblem([{ to: 'q0' }], [{ id: 'q0', type: 'short_text' }]), null, 'a start jump may name the first question');
  t.is(variablesProblem({ score: 0, name: 'x' }), null);
  t.is(variablesProblem({ 'bad name': 1 })?.field, 'variables.bad name');
  t.is(variablesProblem({ a: { nested: [1] } }), null, 'values are any JSON');
});
