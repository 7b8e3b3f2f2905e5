import test from 'ava';
import { computeVariables, formLogicProblem, visiblePath } from '../../src/logic/index';

/* Variable actions of logic rules (docs/decisions.md "Logic and validations"). */
const qs = [
  {
    id: 'a',
    logic_jumps: [
      { conditions: [{ op: 'equals', value: 'yes' }], actions: [{ op: 'add', variable: 'score', value: 2 }] },
      { conditions: [{ op: 'equals', value: 'yes' }], actions: [{ op: 'set', variable: 'tier', value: 'gold' }], to: 'c' },
      { actions: [{ op: 'add', variable: 'score', value: 100 }] },
    ],
  },
  { id: 'b', logic_jumps: [{ actions: [{ op: 'add', variable: 'score', value: -1 }] }] },
  { id: 'c', logic_jumps: [{ conditions: [{ op: 'greater_than', value: 3 }], actions: [{ op: 'add', variable: 'score', value: 5 }] }] },
];

test('actions run for each holding rule up to the first holding rule that jumps; a rule without `to` does not jump', (t) => {
  t.deepEqual(visiblePath(qs, [], { answers: { a: 'yes' } }), ['a', 'c'], 'the actions-only rule before does not stop the search');
  t.deepEqual(computeVariables(qs, [], { answers: { a: 'yes', c: 4 } }, { score: 0 }), { score: 7, tier: 'gold' }, 'the rule after the jump is not reached');
  t.deepEqual(computeVariables(qs, [], { answers: { a: 'no', c: 1 } }, { score: 0 }), { score: 99 }, 'no jump: every holding rule runs, b is on the path');
  t.deepEqual(computeVariables(qs, [], { answers: { a: 'yes', c: 9 } }, { score: 0 }, new Set(['a'])), { score: 2, tier: 'gold' }, 'only the passed questions');
  t.deepEqual(computeVariables([{ id: 'x', logic_jumps: [{ actions: [{ op: 'add', variable: 'n', value: 1 }] }] }], [], { answers: {} }, { n: 'text' }), { n: 1 }, 'a non-number counts as 0');
});

test('actions are checked on save: op, variable name, value; `to` may be left out only with actions', (t) => {
  const check = (jumps: unknown) => formLogicProblem(undefined, [{ id: 'a', type: 'short_text', logic_jumps: jumps }, { id: 'b', type: 'short_text' }]);
  t.is(check([{ actions: [{ op: 'add', variable: 'score', value: 1 }] }]), null);
  t.is(check([{ actions: [{ op: 'set', variable: 'tier', value: 'gold' }], to: 'b' }]), null);
  t.is(check([{ conditions: [] }])?.field, 'questions.0.logic_jumps.0.to');
  t.is(check([{ actions: [] }])?.field, 'questions.0.logic_jumps.0.to');
  t.is(check([{ actions: [{ op: 'multiply', variable: 'x', value: 2 }] }])?.field, 'questions.0.logic_jumps.0.actions.0.op');
  t.is(check([{ actions: [{ op: 'add', variable: '1x', value: 2 }] }])?.field, 'questions.0.logic_jumps.0.actions.0.variable');
  t.is(check([{ actions: [{ op: 'add', variable: 'x', value: '2' }] }])?.field, 'questions.0.logic_jumps.0.actions.0.value');
  t.is(check([{ actions: [{ op: 'set', variable: 'x', value: 'y', extra: 1 }] }])?.field, 'questions.0.logic_jumps.0.actions.0.extra');
});
