import type { Request } from 'express';
import { z } from 'zod';
import { parseBody, type InstanceRoute } from '@formloom/core';
import type { QueryParam, RouteSpec } from './route-table';

/** The keys of a query schema as documented query parameters. */
function queryParams(schema: z.ZodType | undefined): QueryParam[] | undefined {
  if (!schema) return undefined;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>> };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => ({
    name,
    description: typeof prop.description === 'string' ? prop.description : '',
    schema: prop,
  }));
}

function headersOf(req: Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A route that could not be served as declared is refused while mounting, naming the plugin. */
function checkRoute(plugin: string, route: InstanceRoute['route']) {
  const where = `plugin "${plugin}", route ${String(route?.method)} ${String(route?.path)}`;
  if (!route || typeof route !== 'object') throw new Error(`plugin "${plugin}": a route is not an object`);
  if (!METHODS.includes(route.method)) throw new Error(`${where}: method must be one of ${METHODS.join(', ')}`);
  if (typeof route.path !== 'string' || !route.path.startsWith('/')) throw new Error(`${where}: path must start with /`);
  if (route.scope !== 'public' && route.scope !== 'forms' && route.scope !== 'voice') throw new Error(`${where}: scope must be public, forms or voice`);
  if (typeof route.handler !== 'function') throw new Error(`${where}: handler must be a function`);
  if (!Array.isArray(route.tags) || typeof route.summary !== 'string') throw new Error(`${where}: summary (a string) and tags (a list) are required`);
}

/**
 * The one adapter from core's framework-neutral plugin routes (docs/plugins.md) to the router's table:
 * the body is validated by the route's schema (400 in the documented shape), and the handler sees plain
 * values instead of Express objects.
 */
export function fromPluginRoute({ plugin, route }: InstanceRoute): RouteSpec {
  checkRoute(plugin, route);
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    tag: route.tags[0] ?? plugin,
    tags: route.tags.length ? route.tags : [plugin],
    scope: route.scope === 'public' ? null : route.scope,
    body: route.body,
    accepts: route.accepts,
    rawBody: route.rawBody,
    query: queryParams(route.query),
    headers: route.headers,
    success: route.success ?? { status: 200, description: 'OK' },
    errors: route.errors,
    errorBodies: route.errorBodies,
    handler: async (ctx) =>
      route.handler({
        params: { ...(ctx.req.params as Record<string, string>) },
        query: (route.query ? parseBody(route.query, { ...ctx.req.query }) : { ...ctx.req.query }) as Record<string, unknown>,
        body: route.body ? parseBody(route.body, ctx.req.body) : route.rawBody ? undefined : ctx.req.body,
        rawBody: route.rawBody && Buffer.isBuffer(ctx.req.body) ? ctx.req.body : undefined,
        headers: headersOf(ctx.req),
        principal: ctx.principal ?? null,
        ip: ctx.req.ip ?? null,
        baseUrl: ctx.req.baseUrl,
        signal: ctx.signal,
        formloom: ctx.formloom,
      }),
  };
}
