import type { ConditionOp } from '../../../../../core/src/logic/conditions.js';

/*
 * Which tests the logic editor offers for an answer, by the kind of question that gives it (docs/workspace.md,
 * "Logic"): a yes/no answer is only "is" or "is not", a number is compared, a choice is matched against the
 * choices, a text is searched. The server accepts every operator on every kind (API clients and forms saved
 * before keep working: docs/decisions.md, "Logic and validations"); the builder offers only those that mean
 * something, in words for the kind.
 */

/** What an operator's value is edited as: none, one value, two (a range), or a set of choices. */
export type ValueShape = 'none' | 'one' | 'range' | 'set';

export interface OperatorChoice {
  op: ConditionOp;
  label: string;
}

const YES_NO: OperatorChoice[] = [
  { op: 'equals', label: 'is' },
  { op: 'not_equals', label: 'is not' },
];
const NUMBER: OperatorChoice[] = [
  { op: 'equals', label: '= equals' },
  { op: 'not_equals', label: '≠ does not equal' },
  { op: 'less_than', label: '< is less than' },
  { op: 'greater_than', label: '> is greater than' },
  { op: 'between', label: 'is between' },
];
const CHOICE: OperatorChoice[] = [
  { op: 'equals', label: 'is' },
  { op: 'not_equals', label: 'is not' },
  { op: 'is_any_of', label: 'is any of' },
];
const TEXT: OperatorChoice[] = [
  { op: 'contains', label: 'contains' },
  { op: 'not_contains', label: 'does not contain' },
  { op: 'equals', label: 'is' },
  { op: 'is_not_answered', label: 'is empty' },
  { op: 'is_answered', label: 'is not empty' },
];
const DATE: OperatorChoice[] = [
  { op: 'less_than', label: 'is before' },
  { op: 'greater_than', label: 'is after' },
  { op: 'between', label: 'is between' },
];
const OTHER: OperatorChoice[] = [
  { op: 'is_answered', label: 'is answered' },
  { op: 'is_not_answered', label: 'is not answered' },
];

const BY_KIND: Record<string, OperatorChoice[]> = {
  yes_no: YES_NO,
  number: NUMBER,
  rating: NUMBER,
  opinion_scale: NUMBER,
  multiple_choice: CHOICE,
  dropdown: CHOICE,
  short_text: TEXT,
  long_text: TEXT,
  email: TEXT,
  date: DATE,
};

/** The operators offered for a question kind; `hidden` for a hidden field (text from the page's URL). */
export function operatorsFor(kind: string | 'hidden'): OperatorChoice[] {
  return kind === 'hidden' ? TEXT : (BY_KIND[kind] ?? OTHER);
}

/** Every operator's plain label, for a stored condition whose operator this kind does not offer. */
export const ANY_OP_LABEL: Record<ConditionOp, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  begins_with: 'begins with',
  ends_with: 'ends with',
  greater_than: 'is greater than',
  less_than: 'is less than',
  greater_or_equal: 'is at least',
  less_or_equal: 'is at most',
  is_answered: 'is answered',
  is_not_answered: 'is not answered',
  between: 'is between',
  is_any_of: 'is any of',
};

export function valueShape(op: ConditionOp): ValueShape {
  if (op === 'is_answered' || op === 'is_not_answered') return 'none';
  if (op === 'between') return 'range';
  if (op === 'is_any_of') return 'set';
  return 'one';
}
