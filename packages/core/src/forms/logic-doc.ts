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

export const jumpDoc = z
  .object({
    match: z.enum(['all', 'any']).optional(),
    conditions: z.array(conditionDoc).max(20).optional(),
    to: z.string().min(1).describe(`The id of a later question of this form, or \`${END}\``),
  })
  .strict();
