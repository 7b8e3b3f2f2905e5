import { z } from 'zod';
import { ERROR_CODES } from './errors';

/**
 * What the API answers, as zod schemas: each area keeps the schemas of its bodies beside its presenters
 * (`<area>/output-schemas.ts`), and the HTTP layer renders them into the OpenAPI document. A schema
 * registered here under an id becomes a named component (`#/components/schemas/<id>`) there.
 *
 * This is a registry of its own, not zod's global one, so that two instances of the library in one
 * process cannot collide over ids.
 */
export const apiSchemas = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as the named component `id` of the OpenAPI document and returns it. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  apiSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

/**
 * What the document shows for a schema whose checks zod cannot render (a refinement, a hand-written parser
 * of a list's items): `documentAs(schema, {format: 'uri'})` adds JSON Schema keywords; a zod schema renders
 * in its place instead (the question union is rendered from the same per-type schemas that validate).
 * Read by `@formloom/express` when it builds the OpenAPI document. Keyed weakly by
 * the schema object, so it holds nothing of its own.
 */
export interface Documented {
  keywords?: Record<string, unknown>;
  as?: z.ZodType;
}
export const documented: WeakMap<object, Documented> = new WeakMap();

/** Records how `schema` is documented (see {@link documented}) and returns it. */
export function documentAs<T extends z.ZodType>(schema: T, how: Record<string, unknown> | z.ZodType): T {
  const entry: Documented = how instanceof z.ZodType ? { as: how } : { keywords: how as Record<string, unknown> };
  documented.set(schema, entry);
  return schema;
}

/** An ISO 8601 timestamp (`2026-01-31T12:00:00.000Z`). */
export const timestamp = z.iso.datetime({ offset: true });
export const int = z.number().int();

/** `{success: true}`. */
export const successOut = named('Success', z.object({ success: z.literal(true) }));

/** `{success: true, message}`. */
export const successMessageOut = named('SuccessWithMessage', z.object({ success: z.literal(true), message: z.string() }));

/** A page of a list: `{<key>: items[], total, page, per_page}`. */
export const pageOf = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.object({ [key]: z.array(item), total: int, page: int, per_page: int } as { [P in K]: z.ZodArray<T> } & {
    total: typeof int;
    page: typeof int;
    per_page: typeof int;
  });

/**
 * The one error shape of the API (docs/decisions.md, "Errors"): `{error: {code, message, status, ...}}`
 * with details such as `field`, `reason`, `question_ids` or `upgrade_required` when they apply.
 */
export const errorBodySchema = named(
  'Error',
  z.object({
    error: z.looseObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      status: int,
      reason: z.string().optional(),
      field: z.string().optional(),
      question_ids: z.array(z.string()).optional(),
      upgrade_required: z.boolean().optional(),
    }),
  }),
  'Every error: a stable code, a message for people, the HTTP status and details',
);
