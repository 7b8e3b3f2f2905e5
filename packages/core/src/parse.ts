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
  const result = schema.safeParse(input);
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
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  throw badRequest(field ? `${field}: ${message}` : message, field ? { field } : {});
}
