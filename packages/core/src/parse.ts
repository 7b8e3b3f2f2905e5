import type { z } from 'zod';
import { badRequest } from './errors';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/**
 * Validates a request body: drops the resource's read-only fields (a client may send back what it
 * read), then parses strictly. Failures become a 400 naming the first offending field.
 */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  readOnly: readonly string[] = [],
): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON object');
  }
  let input = body as Record<string, unknown>;
  if (readOnly.length) {
    input = { ...input };
    for (const f of readOnly) delete input[f];
  }
  // reportInput: the offending value, so that a wrong type is told apart from a missing field.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const base = fieldPath(issue.path);
    const names = issue.keys.map((k) => (base ? `${base}.${k}` : k));
    throw badRequest(`Unknown field${names.length > 1 ? 's' : ''}: ${names.join(', ')}`, {
      field: names[0],
      fields: names,
    });
  }
  const field = fieldPath(issue.path);
  const message = issue.code === 'invalid_type' ? typeMessage(issue.expected, issue.input, present(input, issue.path)) : issue.message;
  throw badRequest(field ? `${field}: ${message}` : message, field ? { field } : {});
}

/** True when the body has a value (even null) at `path`: a wrong type, not a missing field. */
export function present(body: unknown, path: readonly PropertyKey[]): boolean {
  let at: unknown = body;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, key as string)) return false;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at !== undefined;
}

const ARTICLE: Record<string, string> = { array: 'an array', object: 'an object', int: 'a whole number', integer: 'a whole number' };

/** "is required" for a missing field; "expected a number, received an object" for a wrong one (docs/decisions.md "Errors"). */
export function typeMessage(expected: string, received: unknown, isPresent: boolean): string {
  if (!isPresent) return 'is required';
  return `expected ${ARTICLE[expected] ?? `a ${expected}`}, received ${describeValue(received)}`;
}

/** How an error message names what a client sent: "a string", "an object", "null" (docs/decisions.md "Errors"). */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(v) ? (Number.isInteger(v) ? 'a number' : 'a fractional number') : 'a non-finite number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof v}`;
  }
}
