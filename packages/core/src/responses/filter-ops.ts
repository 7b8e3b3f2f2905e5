import type { ConditionOp } from '../logic/conditions';

/*
 * Which of the logic's operators (logic/conditions.ts) a filter by answer may use on each question kind
 * (docs/responses-and-webhooks.md, "Filtering by answer"). Dependency-free: the server checks filters with
 * it (answer-filter.ts) and the workspace's filter bar offers the same operators (results/filter-bar.ts).
 */

const PRESENCE: ConditionOp[] = ['is_answered', 'is_not_answered'];
const NUMBER_OPS: ConditionOp[] = ['equals', 'not_equals', 'greater_than', 'less_than', 'greater_or_equal', 'less_or_equal', 'between', ...PRESENCE];
const CHOICE_OPS: ConditionOp[] = ['equals', 'not_equals', 'is_any_of', 'contains', 'not_contains', ...PRESENCE];
const TEXT_OPS: ConditionOp[] = ['contains', 'not_contains', 'equals', 'not_equals', 'begins_with', 'ends_with', ...PRESENCE];
const DATE_OPS: ConditionOp[] = ['equals', 'not_equals', 'less_than', 'greater_than', 'less_or_equal', 'greater_or_equal', 'between', ...PRESENCE];

/** The operators a filter may use on each question kind; other answered kinds (files, groups) take only the presence tests. */
export const FILTER_OPS: Readonly<Record<string, readonly ConditionOp[]>> = {
  yes_no: ['equals', 'not_equals', ...PRESENCE],
  number: NUMBER_OPS,
  rating: NUMBER_OPS,
  opinion_scale: NUMBER_OPS,
  multiple_choice: CHOICE_OPS,
  dropdown: CHOICE_OPS,
  short_text: TEXT_OPS,
  long_text: TEXT_OPS,
  email: TEXT_OPS,
  date: DATE_OPS,
};

/** Kinds run by the service, never answered by respondents: no filter applies to them. */
export const UNFILTERABLE_KINDS: readonly string[] = ['contract', 'booking', 'payment', 'data', 'email_step', 'fuse', 'composite'];

/** The operators of a kind ([] for kinds respondents do not answer). */
export function filterOpsOf(kind: string): readonly ConditionOp[] {
  if (UNFILTERABLE_KINDS.includes(kind)) return [];
  return FILTER_OPS[kind] ?? PRESENCE;
}
