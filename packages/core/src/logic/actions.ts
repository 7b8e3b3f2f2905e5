import type { LogicContext } from './conditions.js';
import { jumpMatches, visiblePath, type LogicJump, type LogicQuestion, type VariableAction } from './jumps.js';

export type { VariableAction };

/**
 * Variable actions of logic rules (docs/decisions.md "Logic and validations"): a rule (an entry of
 * `logic_jumps`) may carry `actions`, each setting a form variable or adding to it, e.g. a score. Pure and
 * shared: the respondent's page computes the variables it recalls ({var.score}) from the answers.
 */

export const ACTION_OPS = ['set', 'add'] as const;
/** At most this many actions per rule. */
export const MAX_ACTIONS = 20;

const rulesOf = (v: unknown): LogicJump[] => (Array.isArray(v) ? (v as LogicJump[]).filter((j) => j && typeof j === 'object') : []);
const actionsOf = (j: LogicJump): VariableAction[] => (Array.isArray(j.actions) ? j.actions : []);

function apply(vars: Record<string, unknown>, a: VariableAction): void {
  if (!a || typeof a.variable !== 'string') return;
  if (a.op === 'set') vars[a.variable] = a.value;
  else if (a.op === 'add') {
    // A variable that holds no number counts as 0; adding a non-number does nothing.
    const now = typeof vars[a.variable] === 'number' ? (vars[a.variable] as number) : Number(vars[a.variable]);
    const add = Number(a.value);
    if (Number.isFinite(add)) vars[a.variable] = (Number.isFinite(now) ? now : 0) + add;
  }
}

/**
 * The rules of one question (or the start rules, `self` ''): their actions run in order for each rule whose
 * conditions hold, up to and including the first holding rule that jumps (it decides where to go; later rules
 * are not reached).
 */
export function runActions(rules: unknown, self: string, ctx: LogicContext, vars: Record<string, unknown>): void {
  for (const j of rulesOf(rules)) {
    if (!jumpMatches(j, self, ctx)) continue;
    for (const a of actionsOf(j)) apply(vars, a);
    if (typeof j.to === 'string' && j.to) return;
  }
}

/**
 * The variables after the respondent's path: the declared values, then the start rules' actions, then each
 * question's on the path, in order. `passed` limits the questions to those the respondent has left (on the
 * page, the ones before the current question): an unanswered question's rules have not run yet.
 */
export function computeVariables(questions: LogicQuestion[], startJumps: unknown, ctx: LogicContext, initial: Record<string, unknown>, passed?: ReadonlySet<string>): Record<string, unknown> {
  const vars: Record<string, unknown> = { ...initial };
  runActions(startJumps, '', ctx, vars);
  const byId = new Map(questions.map((q) => [q.id, q]));
  for (const id of visiblePath(questions, startJumps, ctx)) {
    if (passed && !passed.has(id)) break;
    runActions(byId.get(id)?.logic_jumps, id, ctx, vars);
  }
  return vars;
}
