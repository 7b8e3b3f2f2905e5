import { z } from 'zod';
import { CONDITION_OPS, LIST_OPS, UNARY_OPS } from '../logic/conditions.js';
import { END } from '../logic/jumps.js';

/**
 * Logic jumps as the OpenAPI document shows them. rules.ts checks stored logic by hand (its 400s name the
 * jump and field, and it knows the form's question ids, which no schema can); these schemas say the same
 * shapes, and the fuzz test requires what they allow to be accepted.
 */

const BINARY_OPS = CONDITION_OPS.filter((op) => !UNARY_OPS.includes(op) && !LIST_OPS.includes(op));
const listItem = z.union([z.string().max(1000), z.number()]);
const conditionField = z.string().min(1).optional().describe('A question id of this form, or `hidden:<name>`; default: the question itself');

export const conditionDoc = z.union([
  z.object({ field: conditionField, op: z.enum(BINARY_OPS as [string, ...string[]]), value: z.union([z.string().max(1000), z.number(), z.boolean()]) }).strict(),
  z.object({ field: conditionField, op: z.enum(UNARY_OPS as [string, ...string[]]) }).strict(),
  z.object({ field: conditionField, op: z.literal('between'), value: z.tuple([listItem, listItem]).describe('[low, high], both included: numbers or YYYY-MM-DD dates') }).strict(),
  z.object({ field: conditionField, op: z.literal('is_any_of'), value: z.array(listItem).min(1).max(100) }).strict(),
]);

const actionDoc = z.union([
  z.object({ op: z.literal('set'), variable: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/).describe("A variable name (declare it in `variables` to give it a start value or recall it)"), value: z.union([z.number(), z.string().max(1000)]) }).strict(),
  z.object({ op: z.literal('add'), variable: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/).describe("A variable name (declare it in `variables` to give it a start value or recall it)"), value: z.number().describe('Negative to subtract') }).strict(),
]);
const ruleFields = {
  match: z.enum(['all', 'any']).optional(),
  conditions: z.array(conditionDoc).max(20).optional(),
};
const target = z.string().min(1).describe(`The id of a later question of this form, or \`${END}\``);
const actionsDescription = 'Run in order when the rule holds (up to the first holding rule that jumps)';

/** A rule that jumps (with actions or not), or one that only runs actions. */
export const jumpDoc = z.union([
  z.object({ ...ruleFields, to: target, actions: z.array(actionDoc).max(20).optional().describe(actionsDescription) }).strict(),
  z.object({ ...ruleFields, actions: z.array(actionDoc).min(1).max(20).describe(actionsDescription) }).strict(),
]);
