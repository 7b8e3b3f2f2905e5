import { z } from 'zod';
import { PluginConfigError } from './plugin-host';
import type { PluginRoute } from './routes';

/**
 * Checks, while `createFormloom` runs, that every schema a plugin route declares is one this instance can
 * validate with and render into the OpenAPI document. A schema built with another major of zod (zod 3 has
 * no `_zod`; a later major another `_zod.version.major`) would load, then break `GET /openapi.json` for the
 * whole instance: it is refused here instead, naming the plugin, the route and the fix (docs/plugins.md).
 */

const OUR_MAJOR = 4;

function majorOf(schema: unknown): number | 'not zod' {
  if (!schema || typeof schema !== 'object') return 'not zod';
  const internals = (schema as { _zod?: { version?: { major?: unknown } } })._zod;
  if (internals && typeof internals.version?.major === 'number') return internals.version.major;
  // zod 3 keeps its definition in `_def` and parses with `safeParse`, without `_zod`.
  if ('_def' in schema && typeof (schema as { safeParse?: unknown }).safeParse === 'function') return 3;
  return 'not zod';
}

/** Every schema slot of a route, by the name a plugin author knows it under. */
function schemasOf(route: PluginRoute<unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (route.body !== undefined) out.push(['body', route.body]);
  if (route.query !== undefined) out.push(['query', route.query]);
  for (const [type, s] of Object.entries(route.accepts ?? {})) out.push([`accepts['${type}']`, s]);
  const success = route.success;
  if (success?.schema !== undefined) out.push(['success.schema', success.schema]);
  (success?.others ?? []).forEach((o, i) => o.schema !== undefined && out.push([`success.others[${i}].schema`, o.schema]));
  for (const [status, s] of Object.entries(route.errorBodies ?? {})) out.push([`errorBodies[${status}]`, s]);
  return out;
}

/**
 * Schemas already rendered without error by an earlier check in this process. A zod schema does not change once
 * built, so a second instance (a test file's app per database, two tenants in one host) skips rendering the
 * same route schemas again, which was most of `createFormloom`'s CPU time.
 */
const describable = new WeakSet<object>();

export function checkRouteSchemas(plugin: string, route: PluginRoute<unknown>): void {
  const where = `plugin "${plugin}", route ${String(route?.method).toUpperCase()} ${String(route?.path)}`;
  for (const [slot, schema] of schemasOf(route)) {
    const major = majorOf(schema);
    if (major === 'not zod') throw new PluginConfigError(`${where}: \`${slot}\` is not a zod schema`);
    if (major !== OUR_MAJOR) {
      throw new PluginConfigError(
        `${where}: \`${slot}\` was built with zod ${major}, but Formloom validates and documents with zod ${OUR_MAJOR}. ` +
          `Declare "zod": "^${OUR_MAJOR}" in the plugin's peerDependencies, import z from that zod, and reinstall (docs/plugins.md, "zod").`,
      );
    }
    if (describable.has(schema as object)) continue;
    try {
      for (const io of ['input', 'output'] as const) z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any', target: 'draft-2020-12' });
      describable.add(schema as object);
    } catch (e) {
      throw new PluginConfigError(`${where}: \`${slot}\` cannot be described in the OpenAPI document: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** A success with no body to describe: a 204, a 304. */
const EMPTY_STATUSES = new Set([204, 304]);

/**
 * What a plugin's routes leave unchecked, told once while `createFormloom` runs (through the instance's
 * logger, under the plugin's name): a success without `schema` or `media` is documented as any JSON (`{}`),
 * so clients get no type for it; and without `strictResponses` no answer is compared with its documented
 * schema, so drift reaches clients unseen (docs/plugins.md, "Checking answers").
 */
export function routeWarnings(routes: readonly PluginRoute<unknown>[], strictResponses: boolean): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  const name = (r: PluginRoute<unknown>) => `${String(r.method).toUpperCase()} ${r.path}`;
  for (const r of routes) {
    const successes: Array<{ status: number; schema?: unknown; media?: string[] }> = [r.success ?? { status: 200 }, ...(r.success?.others ?? [])];
    for (const s of successes) {
      if (s.schema || s.media?.length || EMPTY_STATUSES.has(s.status)) continue;
      out.push([
        `route ${name(r)} declares no success.schema for ${s.status}: the OpenAPI document describes that answer as any JSON ({}). Give success.schema (success.media for a stream).`,
        { route: name(r), status: s.status },
      ]);
    }
  }
  const checkable = routes.filter((r) => [r.success, ...(r.success?.others ?? [])].some((s) => s?.schema));
  if (!strictResponses && checkable.length) {
    out.push([
      'the answers of its routes are not checked against their success schemas: createFormloom({ strictResponses: true }) checks them (use it in tests and development).',
      { routes: checkable.map(name) },
    ]);
  }
  return out;
}
