/**
 * Conditions of logic jumps (docs/decisions.md "Logic and validations"). Pure and dependency-free: the
 * respondent's page compiles this file for the browser, and the server evaluates the same rules, so both
 * agree on which questions a respondent was shown.
 */

/** Operators a condition may use. */
export const CONDITION_OPS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'begins_with',
  'ends_with',
  'greater_than',
  'less_than',
  'greater_or_equal',
  'less_or_equal',
  'is_answered',
  'is_not_answered',
  // Added for the builder's per-kind operators: `value` is a list ([low, high] / the choices).
  'between',
  'is_any_of',
] as const;

export type ConditionOp = (typeof CONDITION_OPS)[number];

/**
 * One test on an answer. `field` names what is tested: a question id (default: the question the jump belongs
 * to) or `hidden:<name>` for a hidden field given in the page's URL.
 */
export interface Condition {
  field?: string;
  op: ConditionOp;
  /** A list only for `between` ([low, high], both included) and `is_any_of` (the values, any one matches). */
  value?: string | number | boolean | Array<string | number>;
}

/** What conditions read: answers by question id and hidden fields by name. */
export interface LogicContext {
  answers: Record<string, unknown>;
  hidden?: Record<string, string>;
}

/** Ops that take no `value`. */
export const UNARY_OPS: readonly ConditionOp[] = ['is_answered', 'is_not_answered'];

/** Ops whose `value` is a list: `between` two items, `is_any_of` 1 to 100. */
export const LIST_OPS: readonly ConditionOp[] = ['between', 'is_any_of'];

/** True when a value is no answer: null, blank text, an empty list, an object of empty sub-fields. */
export function isUnanswered(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isUnanswered);
  return false;
}

const lower = (v: unknown) => String(v).toLowerCase();

/** Text of an answer for text comparisons: a file's name, a list's items joined. */
function textOf(v: unknown): string {
  if (Array.isArray(v)) return v.map(textOf).join(', ');
  if (v && typeof v === 'object') return textOf((v as { name?: unknown }).name ?? '');
  return lower(v);
}

function same(answer: unknown, expected: unknown): boolean {
  if (Array.isArray(answer)) return answer.some((a) => same(a, expected));
  if (typeof answer === 'number') return answer === Number(expected);
  if (typeof answer === 'boolean') return answer === (expected === true || expected === 'true');
  if (typeof answer === 'string') return lower(answer) === lower(expected);
  return false;
}

function compare(answer: unknown, expected: unknown): number | null {
  const a = typeof answer === 'number' ? answer : typeof answer === 'string' && answer.trim() !== '' ? Number(answer) : NaN;
  const b = Number(expected);
  if (Number.isNaN(a) || Number.isNaN(b)) {
    // Dates (YYYY-MM-DD) compare as text.
    if (typeof answer === 'string' && typeof expected === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(answer)) return answer.localeCompare(expected);
    return null;
  }
  return a - b;
}

/** The value a condition's `field` names, from `self` (the jump's own question) by default. */
export function fieldValue(field: string | undefined, self: string, ctx: LogicContext): unknown {
  const name = field ?? self;
  if (name.startsWith('hidden:')) return ctx.hidden?.[name.slice(7)];
  return ctx.answers[name];
}

/** Whether one condition holds. An unanswered field satisfies only `is_not_answered` and `not_*`. */
export function conditionHolds(c: Condition, self: string, ctx: LogicContext): boolean {
  const v = fieldValue(c.field, self, ctx);
  const empty = isUnanswered(v);
  switch (c.op) {
    case 'is_answered':
      return !empty;
    case 'is_not_answered':
      return empty;
    case 'equals':
      return !empty && same(v, c.value);
    case 'not_equals':
      return empty || !same(v, c.value);
    case 'contains':
      return !empty && textOf(v).includes(lower(c.value));
    case 'not_contains':
      return empty || !textOf(v).includes(lower(c.value));
    case 'begins_with':
      return !empty && textOf(v).startsWith(lower(c.value));
    case 'ends_with':
      return !empty && textOf(v).endsWith(lower(c.value));
    case 'is_any_of':
      return !empty && Array.isArray(c.value) && c.value.some((x) => same(v, x));
    case 'between': {
      if (empty || !Array.isArray(c.value) || c.value.length !== 2) return false;
      const lo = compare(v, c.value[0]);
      const hi = compare(v, c.value[1]);
      return lo !== null && hi !== null && lo >= 0 && hi <= 0;
    }
    default: {
      if (empty) return false;
      const d = compare(v, c.value);
      if (d === null) return false;
      if (c.op === 'greater_than') return d > 0;
      if (c.op === 'less_than') return d < 0;
      if (c.op === 'greater_or_equal') return d >= 0;
      return d <= 0;
    }
  }
}
