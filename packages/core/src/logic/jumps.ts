import { type Condition, conditionHolds, type LogicContext } from './conditions.js';

/**
 * Logic jumps (docs/decisions.md "Logic and validations"): after a question is answered, its `logic_jumps`
 * are tried in order and the first whose conditions hold decides where the respondent goes (`to`: a later
 * question's id, or `end`); when none holds, the next question in order follows. `start_logic_jumps` pick the
 * first question the same way, before anything is answered (so their conditions read hidden fields and
 * prefilled answers).
 */
/** A rule's variable action (run by ./actions.ts): sets a form variable or adds to it, e.g. a score. */
export interface VariableAction {
  op: 'set' | 'add';
  /** A name declared in the form's `variables`. */
  variable: string;
  /** `set`: a number or text; `add`: a number (negative to subtract). */
  value: number | string;
}

export interface LogicJump {
  /** `all` (default): every condition must hold; `any`: one is enough. No conditions: always. */
  match?: 'all' | 'any';
  conditions?: Condition[];
  /** Where to go; absent on a rule that only runs `actions` (it does not decide where to go). */
  to?: string;
  /** Variable actions (./actions.ts). */
  actions?: VariableAction[];
}

/** The target meaning "finish the form". */
export const END = 'end';

/** The question fields the logic reads. */
export interface LogicQuestion {
  id: string;
  logic_jumps?: unknown;
}

export function jumpMatches(jump: LogicJump, self: string, ctx: LogicContext): boolean {
  const conditions = jump.conditions ?? [];
  if (conditions.length === 0) return true;
  return jump.match === 'any' ? conditions.some((c) => conditionHolds(c, self, ctx)) : conditions.every((c) => conditionHolds(c, self, ctx));
}

const jumpsOf = (v: unknown): LogicJump[] => (Array.isArray(v) ? (v as LogicJump[]) : []);

/** The first matching jump's target among `jumps`, or null when none matches. */
export function firstTarget(jumps: unknown, self: string, ctx: LogicContext): string | null {
  for (const j of jumpsOf(jumps)) if (j && typeof j.to === 'string' && jumpMatches(j, self, ctx)) return j.to;
  return null;
}

/** Index of the question a target names, `questions.length` for the end; unknown or backward targets are ignored. */
function targetIndex(questions: LogicQuestion[], target: string | null, after: number): number | null {
  if (target === null) return null;
  if (target === END) return questions.length;
  const i = questions.findIndex((q) => q.id === target);
  return i > after ? i : null;
}

/** Index of the first question to show. */
export function startIndex(questions: LogicQuestion[], startJumps: unknown, ctx: LogicContext): number {
  return targetIndex(questions, firstTarget(startJumps, '', ctx), -1) ?? 0;
}

/** Index of the question after `index` (or `questions.length` for the end). */
export function nextIndex(questions: LogicQuestion[], index: number, ctx: LogicContext): number {
  const q = questions[index];
  if (!q) return questions.length;
  return targetIndex(questions, firstTarget(q.logic_jumps, q.id, ctx), index) ?? index + 1;
}

/**
 * The ids of the questions a respondent is shown, in order, given their answers: the path from the start
 * through the jumps to the end. Questions off the path were skipped and are not required.
 */
export function visiblePath(questions: LogicQuestion[], startJumps: unknown, ctx: LogicContext): string[] {
  const path: string[] = [];
  // Jumps only go forward, so the walk ends; the bound guards against data stored before that rule.
  for (let i = startIndex(questions, startJumps, ctx), steps = 0; i < questions.length && steps <= questions.length; steps++) {
    path.push(questions[i]!.id);
    i = nextIndex(questions, i, ctx);
  }
  return path;
}
