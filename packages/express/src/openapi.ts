import { z } from 'zod';
import { apiSchemas, errorBodySchema } from '@formloom/core';
import type { RouteSpec } from './route-table';
import { BUILT_IN_COMPONENTS, ERROR_RESPONSES, schemaConverter, TAG_DESCRIPTIONS } from './openapi-parts';
import { readsBody } from './body-readers';
import { MAX_JSON_DEPTH } from './input-guard';

/** How the document describes authentication: its scheme name and OpenAPI security scheme object. */
export interface OpenApiSecurity {
  name: string;
  scheme: Record<string, unknown>;
  /** Formloom API keys are accepted beside this scheme (`apiKeys: true`): either one authenticates. */
  alsoApiKeys?: boolean;
}

export interface OpenApiOptions {
  /** Default: Formloom API keys as bearer tokens. */
  security?: OpenApiSecurity;
  /** Schemes accepted instead of `security` on every authenticated operation (the session cookie). */
  alternatives?: OpenApiSecurity[];
}

/** The document's scheme when Formloom's own API keys authenticate requests. */
export const API_KEY_SECURITY: OpenApiSecurity = {
  name: 'apiKey',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`Authorization: Bearer fl_...`) from `formloom key create`; `forms` or `voice` scope as each operation says',
  },
};

/** The default scheme when the host authenticates (an `authenticate` hook): the host's credentials, not API keys. */
export const HOST_SECURITY: OpenApiSecurity = {
  name: 'hostAuth',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    description:
      "Requests are authenticated by the host application that mounts this API (its `authenticate` hook), not by Formloom API keys: send the credentials the host's own documentation asks for",
  },
};

/**
 * What the document says once for every operation: the input rules no schema states (input-guard.ts), since
 * JSON Schema has no constraint on every string of a document.
 */
const INFO_DESCRIPTION = [
  'Forms, publishing, responses, webhooks, teams, signing and voice. Guides: docs/ of the Formloom repository.',
  '',
  `Every operation: no string in a path parameter, the query or a JSON body, object keys included, may contain the NUL character U+0000 (PostgreSQL cannot store it): 400 naming the field (\`field\`: its dotted path). A JSON body nests objects and arrays at most ${MAX_JSON_DEPTH} levels deep: 400 past it.`,
].join('\n');

/** A file in a body (OpenAPI 3.1: raw bytes of the media type). */
const BINARY = { type: 'string', format: 'binary' };

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });

/** Express `:param` to OpenAPI `{param}`. */
const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]+)/g, '{$1}');

const VERB: Record<RouteSpec['method'], string> = { get: 'get', post: 'post', put: 'put', patch: 'patch', delete: 'delete' };
const pascal = (w: string) => w.replace(/(^|[-_])([a-z0-9])/gi, (_m, _s, c: string) => c.toUpperCase());

/** The route's `operationId`: its own, else method and path (`GET /notify/:id/status` is `getNotifyByIdStatus`). */
export function operationIdOf(r: Pick<RouteSpec, 'method' | 'path' | 'operationId'>): string {
  if (r.operationId) return r.operationId;
  const words = r.path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? `By${pascal(s.slice(1))}` : pascal(s)));
  return VERB[r.method] + words.join('');
}

/**
 * The error statuses an operation documents: what it declares; 400 and 500 always (a malformed path
 * parameter or query is refused before any route code); 413 where the route reads a body (body-readers.ts);
 * 401/403 with a key; 404 with path parameters.
 */
function errorStatuses(r: RouteSpec): number[] {
  const s = new Set(r.errors ?? []);
  [400, 500].forEach((x) => s.add(x));
  if (readsBody(r)) s.add(413);
  if (r.scope) [401, 403].forEach((x) => s.add(x));
  if (r.path.includes(':')) s.add(404);
  return [...s].sort((a, b) => a - b);
}

/** One documented success: its JSON schema and media types, and its headers. */
function successResponse(success: RouteSpec['success'], out: (s: z.ZodType) => unknown) {
  const content: Record<string, unknown> = {};
  if (success.schema) content['application/json'] = { schema: out(success.schema) };
  for (const m of success.media ?? []) content[m] = { schema: m.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' } };
  // A 204 has no body: no content at all (what a generated client then expects), not JSON.
  if (!Object.keys(content).length && success.status !== 204) content['application/json'] = { schema: {} };
  const headers = Object.entries(success.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]);
  return { description: success.description, ...(headers.length ? { headers: Object.fromEntries(headers) } : {}), ...(Object.keys(content).length ? { content } : {}) };
}

/**
 * The OpenAPI 3.1 document of the mounted routes. Request and response bodies are rendered from the zod
 * schemas that validate requests and describe what the presenters answer; named schemas become components.
 */
export function buildOpenApi(routes: RouteSpec[], serverUrl = '/api/v1', options: OpenApiOptions = {}) {
  const security = options.security ?? API_KEY_SECURITY;
  const schemes = [security, ...(security.alsoApiKeys ? [API_KEY_SECURITY] : []), ...(options.alternatives ?? [])];
  const schemas: Record<string, unknown> = {};
  const toSchema = schemaConverter(schemas);
  const out = (s: z.ZodType) => toSchema(s, 'output', apiSchemas);
  const input = (s: z.ZodType) => toSchema(s, 'input');
  out(errorBodySchema);
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  for (const r of routes) {
    try {
      describeRoute(r);
    } catch (e) {
      // Named, so that the route (a plugin's, a host's) that cannot be documented is refused while mounting.
      throw new Error(`${r.method.toUpperCase()} ${r.path} (${operationIdOf(r)}) cannot be documented: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  function describeRoute(r: RouteSpec) {
    const params = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const query = (r.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required ?? false, description: q.description, schema: q.schema }));
    const headerParams = (r.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: h.required ?? false, description: h.description, schema: h.schema ?? { type: 'string' } }));
    const responses: Record<string, unknown> = {};
    for (const success of [r.success, ...(r.success.others ?? [])]) responses[success.status] = successResponse(success, out);
    for (const s of errorStatuses(r)) {
      const own = r.errorBodies?.[s];
      responses[s] = own
        ? { description: ERROR_RESPONSES[s]?.description ?? 'Error', content: { 'application/json': { schema: { anyOf: [out(own), { $ref: '#/components/schemas/Error' }] } } } }
        : { $ref: `#/components/responses/${ERROR_RESPONSES[s]?.name ?? 'Error'}` };
    }
    const opTags = r.tags ?? [r.tag];
    for (const t of opTags) if (!tags.includes(t)) tags.push(t);
    const op: Record<string, unknown> = {
      operationId: operationIdOf(r),
      summary: r.summary,
      tags: opTags,
      parameters: [...params, ...query, ...headerParams],
      responses,
      // An `anonymous` route also takes no credentials at all (`{}`): the description says what then proves access.
      security: r.scope ? [...(r.sessionOnly && options.alternatives?.length ? options.alternatives : schemes).map((s) => ({ [s.name]: [] })), ...(r.anonymous ? [{}] : [])] : [],
    };
    if (r.scope) op.description = security === API_KEY_SECURITY ? `Needs a \`${r.scope}\` key.` : `Needs a principal of scope \`${r.scope}\`.`;
    if (r.scope && r.anonymous) op.description = `${String(op.description).replace(/\.$/, '')}, or: ${r.anonymous}`;
    if (r.scope && r.sessionOnly) op.description = 'Needs a signed-in session (the `formloom_session` cookie); keys get 401.';
    const bodies: Record<string, unknown> = {};
    if (r.body) bodies['application/json'] = { schema: input(r.body) };
    for (const [type, schema] of Object.entries(r.accepts ?? {})) bodies[type] ??= { schema: input(schema) };
    if (Object.keys(bodies).length) op.requestBody = { required: true, content: bodies };
    (paths[toOpenApiPath(r.path)] ??= {})[r.method] = op;
  }
  const errorResponses: Record<string, unknown> = {};
  for (const [status, e] of Object.entries(ERROR_RESPONSES)) {
    errorResponses[e.name] = {
      description: e.description,
      ...(Number(status) === 429 || Number(status) === 503 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Formloom API',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: serverUrl }],
    tags: tags.map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name })),
    components: {
      securitySchemes: Object.fromEntries(schemes.map((s) => [s.name, s.scheme])),
      // By code unit, not localeCompare: the collator's ICU data is some 2.6 MB of resident memory, paid at
      // every start for the order of ASCII names (docs/benchmarks.md, "Where the memory goes").
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      responses: errorResponses,
    },
    paths,
  };
}

/**
 * Throws, naming the route, when one of `own` (a plugin's or the host's routes) cannot be documented in the
 * document of `all`. Each route is described on its own, so describing `own` decides it, except for a component
 * named like a built-in one (the one thing two routes can disagree on): only then is `all` described. Describing
 * every route takes some 70-110 ms, a fifth of a start's CPU (docs/benchmarks.md, "Where the memory goes").
 */
export function assertDocumentable(own: RouteSpec[], all: RouteSpec[], options: OpenApiOptions = {}): void {
  if (!own.length) return;
  const components = Object.keys(buildOpenApi(own, '/', options).components.schemas);
  // Error is in every document, and the own document already compared theirs with it.
  if (components.some((id) => id !== 'Error' && BUILT_IN_COMPONENTS.has(id))) buildOpenApi(all, '/', options);
}
