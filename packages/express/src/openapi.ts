import { z } from 'zod';
import type { RouteSpec } from './route-table';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request (BAD_REQUEST), naming the field',
  401: 'Missing, malformed, revoked or expired key (UNAUTHORIZED)',
  402: 'Payment required',
  403: 'Not permitted: role, plan or key scope (FORBIDDEN)',
  404: 'Not found or not accessible (NOT_FOUND)',
  409: 'Conflict (CONFLICT)',
  413: 'Body too large',
  415: 'File type not accepted (UNSUPPORTED_MEDIA_TYPE)',
  416: 'Range not satisfiable (RANGE_NOT_SATISFIABLE), with Content-Range: bytes */<size>',
  429: 'Rate limited (RATE_LIMITED), with Retry-After',
};

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        status: { type: 'integer' },
        reason: { type: 'string' },
        field: { type: 'string' },
        question_ids: { type: 'array', items: { type: 'string' } },
        upgrade_required: { type: 'boolean' },
      },
      additionalProperties: true,
    },
  },
};

/** A file in a body (OpenAPI 3.1: raw bytes of the media type). */
const BINARY = { type: 'string', format: 'binary' };

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });

/** Express `:param` to OpenAPI `{param}`. */
const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The OpenAPI 3.1 document of the mounted routes, rendered from the schemas that validate requests. */
export function buildOpenApi(routes: RouteSpec[], serverUrl = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const params = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = (r.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema }));
    const successType = r.success.contentType ?? 'application/json';
    const responses: Record<string, unknown> = {
      [r.success.status]: { description: r.success.description, content: { [successType]: { schema: successType === 'application/json' ? { type: 'object' } : BINARY } } },
    };
    for (const s of r.errors ?? []) {
      const ref = r.plainErrors?.includes(s) ? '#/components/schemas/PlainError' : '#/components/schemas/Error';
      responses[s] = { description: STATUS_TEXT[s] ?? 'Error', content: { 'application/json': { schema: { $ref: ref } } } };
    }
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: r.tags ?? [r.tag],
      operationId: r.operationId ?? `${r.method}${r.path.replace(/[/:{}-]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: [...params, ...query],
      responses,
      security: r.scope ? [{ apiKey: [] }] : [],
    };
    if (r.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body) } } };
    } else if (r.accepts?.length) {
      op.requestBody = {
        required: true,
        content: Object.fromEntries(r.accepts.map((a) => [a.contentType, { schema: a.schema ? jsonSchema(a.schema) : BINARY }])),
      };
    }
    (paths[toOpenApiPath(r.path)] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Formloom API', version: '1.0.0', description: 'Forms, publishing and versions, themes. See docs/ for guides.' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from `formloom key create`' } },
      schemas: {
        Error: errorSchema,
        PlainError: { type: 'object', required: ['error'], properties: { error: { type: 'string' } }, description: 'The plain error shape of a few public endpoints' },
      },
    },
    paths,
  };
}
