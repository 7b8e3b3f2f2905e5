import { CONDITION_OPS, LIST_OPS, UNARY_OPS } from './conditions.js';
import { END } from './jumps.js';
import { ACTION_OPS, MAX_ACTIONS } from './actions.js';
import { MAX_PATTERN_LENGTH, VALIDATION_KEYS, compilePattern } from './validations.js';

/**
 * Checks of the logic a form stores (docs/decisions.md "Logic and validations"), run when a form is saved.
 * Each returns the first problem as `{field, message}` with `field` a dotted path under the form body, or
 * null. Pure, so the server's schema and any client can use them.
 */
export interface RuleProblem {
  field: string;
  message: string;
}

export interface RuleQuestion {
  id?: string;
  type: string;
  logic_jumps?: unknown;
  validations?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function conditionsProblem(conditions: unknown, at: string, known: Set<string>): RuleProblem | null {
  if (conditions === undefined) return null;
  if (!Array.isArray(conditions)) return { field: at, message: 'expected an array of conditions' };
  if (conditions.length > 20) return { field: at, message: 'at most 20 conditions' };
  for (const [i, c] of conditions.entries()) {
    const f = `${at}.${i}`;
    if (!isObject(c)) return { field: f, message: 'expected an object {field?, op, value?}' };
    const extra = Object.keys(c).find((k) => !['field', 'op', 'value'].includes(k));
    if (extra) return { field: `${f}.${extra}`, message: 'is not a condition field (field, op, value)' };
    if (!CONDITION_OPS.includes(c.op as never)) return { field: `${f}.op`, message: `must be one of ${CONDITION_OPS.join(', ')}` };
    if (c.field !== undefined) {
      if (typeof c.field !== 'string') return { field: `${f}.field`, message: 'expected a question id or hidden:<name>' };
      if (!c.field.startsWith('hidden:') && !known.has(c.field)) return { field: `${f}.field`, message: `names no question of this form: ${c.field}` };
    }
    if (LIST_OPS.includes(c.op as never)) {
      const n = c.op === 'between' ? [2, 2] : [1, 100];
      const ok = Array.isArray(c.value) && c.value.length >= n[0]! && c.value.length <= n[1]! && c.value.every((x) => typeof x === 'number' || (typeof x === 'string' && x.length <= 1000));
      if (!ok) return { field: `${f}.value`, message: c.op === 'between' ? 'expected [low, high]: two numbers or dates' : 'expected a list of 1 to 100 values' };
      continue;
    }
    const unary = UNARY_OPS.includes(c.op as never);
    if (!unary && !['string', 'number', 'boolean'].includes(typeof c.value)) return { field: `${f}.value`, message: 'is required: a string, number or boolean' };
    if (typeof c.value === 'string' && c.value.length > 1000) return { field: `${f}.value`, message: 'must be at most 1000 characters' };
  }
  return null;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * A rule's variable actions: `{op: set|add, variable, value}`. The variable need not be declared in
 * `variables` (an undeclared one starts empty, which `add` counts as 0), so a form's rules and its variables
 * can be saved in either order; recalling it is what needs the declaration (a publish check).
 */
function actionsProblem(actions: unknown, at: string): RuleProblem | null {
  if (actions === undefined) return null;
  if (!Array.isArray(actions)) return { field: at, message: 'expected an array of actions' };
  if (actions.length > MAX_ACTIONS) return { field: at, message: `at most ${MAX_ACTIONS} actions` };
  for (const [i, a] of actions.entries()) {
    const f = `${at}.${i}`;
    if (!isObject(a)) return { field: f, message: 'expected an object {op, variable, value}' };
    const extra = Object.keys(a).find((k) => !['op', 'variable', 'value'].includes(k));
    if (extra) return { field: `${f}.${extra}`, message: 'is not an action field (op, variable, value)' };
    if (!ACTION_OPS.includes(a.op as never)) return { field: `${f}.op`, message: `must be one of ${ACTION_OPS.join(', ')}` };
    if (typeof a.variable !== 'string' || !VARIABLE_NAME.test(a.variable)) return { field: `${f}.variable`, message: 'a variable name is letters, digits and _ (not first), at most 64' };
    if (a.op === 'add' && (typeof a.value !== 'number' || !Number.isFinite(a.value))) return { field: `${f}.value`, message: 'expected a number to add' };
    if (a.op === 'set' && !(typeof a.value === 'number' && Number.isFinite(a.value)) && !(typeof a.value === 'string' && a.value.length <= 1000)) {
      return { field: `${f}.value`, message: 'expected a number or a text of at most 1000 characters' };
    }
  }
  return null;
}

/**
 * Jumps of the question at `index` (or the start jumps with `index` -1): each `to` must be `end` or the id of
 * a question after it; a rule with `actions` may have no `to`.
 */
export function jumpsProblem(jumps: unknown, at: string, index: number, ids: (string | undefined)[]): RuleProblem | null {
  if (jumps === undefined || jumps === null) return null;
  if (!Array.isArray(jumps)) return { field: at, message: 'expected an array of jumps' };
  const known = new Set(ids.filter((x): x is string => !!x));
  for (const [i, j] of jumps.entries()) {
    const f = `${at}.${i}`;
    if (!isObject(j)) return { field: f, message: 'expected an object {match?, conditions?, to}' };
    const extra = Object.keys(j).find((k) => !['match', 'conditions', 'to', 'actions'].includes(k));
    if (extra) return { field: `${f}.${extra}`, message: 'is not a jump field (match, conditions, to, actions)' };
    if (j.match !== undefined && j.match !== 'all' && j.match !== 'any') return { field: `${f}.match`, message: 'must be all or any' };
    const c = conditionsProblem(j.conditions, `${f}.conditions`, known);
    if (c) return c;
    const a = actionsProblem(j.actions, `${f}.actions`);
    if (a) return a;
    if (j.to === undefined && Array.isArray(j.actions) && j.actions.length > 0) continue;
    if (typeof j.to !== 'string' || !j.to) return { field: `${f}.to`, message: 'is required: a question id or end (optional only with actions)' };
    if (j.to === END) continue;
    const target = ids.indexOf(j.to);
    if (target < 0) return { field: `${f}.to`, message: `names no question of this form: ${j.to}` };
    if (target <= index) return { field: `${f}.to`, message: `must be a later question: ${j.to} comes ${target === index ? 'at the same place' : 'earlier'}` };
  }
  return null;
}

/** A question's `validations` for its type. */
export function validationsProblem(type: string, validations: unknown, at: string): RuleProblem | null {
  if (validations === undefined || validations === null) return null;
  if (!isObject(validations)) return { field: at, message: 'expected an object' };
  const allowed = VALIDATION_KEYS[type] ?? [];
  for (const [k, v] of Object.entries(validations)) {
    const f = `${at}.${k}`;
    if (!allowed.includes(k as never)) {
      return { field: f, message: allowed.length ? `is not a validation of ${type} questions (${allowed.join(', ')})` : `${type} questions take no validations` };
    }
    if (k === 'pattern') {
      if (typeof v !== 'string' || v.length > MAX_PATTERN_LENGTH) return { field: f, message: `expected a regular expression of at most ${MAX_PATTERN_LENGTH} characters` };
      if (!compilePattern(v)) return { field: f, message: 'is not a valid regular expression' };
    } else if (k === 'pattern_message') {
      if (typeof v !== 'string' || v.length > 500) return { field: f, message: 'expected a string of at most 500 characters' };
    } else if (k.endsWith('_value')) {
      if (typeof v !== 'number' || !Number.isFinite(v)) return { field: f, message: 'expected a number' };
    } else if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      return { field: f, message: 'expected a whole number of at least 0' };
    }
  }
  const pairs: Array<[string, string]> = [['min_length', 'max_length'], ['min_value', 'max_value'], ['min_selections', 'max_selections']];
  for (const [lo, hi] of pairs) {
    const a = validations[lo] as number | undefined;
    const b = validations[hi] as number | undefined;
    if (a !== undefined && b !== undefined && a > b) return { field: `${at}.${lo}`, message: `must not exceed ${hi}` };
  }
  return null;
}

/** Every logic rule of a form body: start jumps, each question's jumps and validations. */
export function formLogicProblem(startJumps: unknown, questions: RuleQuestion[]): RuleProblem | null {
  const ids = questions.map((q) => q.id);
  const start = jumpsProblem(startJumps, 'start_logic_jumps', -1, ids);
  if (start) return start;
  for (const [i, q] of questions.entries()) {
    const p = jumpsProblem(q.logic_jumps, `questions.${i}.logic_jumps`, i, ids) ?? validationsProblem(q.type, q.validations, `questions.${i}.validations`);
    if (p) return p;
  }
  return null;
}

/** `variables`: names of letters, digits and `_`; values are any JSON (rules' actions set them; conditions do not read them yet). */
export function variablesProblem(variables: unknown): RuleProblem | null {
  if (variables === undefined || variables === null) return null;
  if (!isObject(variables)) return { field: 'variables', message: 'expected an object of name: value' };
  const entries = Object.entries(variables);
  if (entries.length > 100) return { field: 'variables', message: 'at most 100 variables' };
  for (const [k, v] of entries) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k)) return { field: `variables.${k}`, message: 'a name is letters, digits and _ (not first), at most 64' };
    if (v === undefined) return { field: `variables.${k}`, message: 'expected a value' };
  }
  return null;
}

/**
 * Rewrites the question ids jumps name (`to` and conditions' `field`) through `ids` (old id to new id):
 * jumps may name questions by the ids a client sent, and a new question gets its id from the service.
 */
export function remapJumps(jumps: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (!Array.isArray(jumps) || ids.size === 0) return jumps;
  return jumps.map((j) => {
    if (!isObject(j)) return j;
    const out: Record<string, unknown> = { ...j };
    if (typeof j.to === 'string' && ids.has(j.to)) out.to = ids.get(j.to);
    if (Array.isArray(j.conditions)) {
      out.conditions = j.conditions.map((c) => (isObject(c) && typeof c.field === 'string' && ids.has(c.field) ? { ...c, field: ids.get(c.field) } : c));
    }
    return out;
  });
}
