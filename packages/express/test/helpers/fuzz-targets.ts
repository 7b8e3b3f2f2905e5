import type { Rng } from './fuzz-gen';

/**
 * What the fuzz tests aim at, read from the served OpenAPI document (so a new operation is fuzzed the day it
 * is documented), plus the public pages.
 */

type Schema = Record<string, any>;

/** Real values for fields by name (`team_id`), set from the fuzz world so that sampled bodies find their records. */
export const known: Record<string, string> = {};

export interface Target {
  method: string;
  /** Express style, e.g. `/api/v1/forms/:id` or `/f/:slug`. */
  path: string;
  /** The document's path (`/forms/{id}`), or the page path. */
  key: string;
  page: boolean;
  auth: boolean;
  /** `voice` or `forms`: which of the world's keys is the route's own. */
  scope: 'voice' | 'forms' | null;
  query: string[];
  /** Media types of the documented request body. */
  accepts: string[];
  schema: Schema | null;
  /** Documented statuses; those answered in the plain `{error}` shape. */
  documented: Set<number>;
  plain: Set<number>;
}

export const PAGES = ['/f/:slug', '/s/:shortCode', '/embed.js', '/formloom/assets/:name'];

export function targetsOf(doc: any): Target[] {
  const out: Target[] = [];
  for (const [docPath, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const responses: Record<string, any> = op.responses ?? {};
      const content: Record<string, any> = op.requestBody?.content ?? {};
      out.push({
        method: method.toUpperCase(),
        path: `/api/v1${docPath.replace(/\{([A-Za-z_]+)\}/g, ':$1')}`,
        key: docPath,
        page: false,
        auth: (op.security ?? []).length > 0,
        scope: (op.security ?? []).length ? (docPath.startsWith('/voice') || docPath.startsWith('/fuzzplug/echo') ? 'voice' : 'forms') : null,
        query: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name as string),
        accepts: Object.keys(content),
        schema: content['application/json']?.schema ?? null,
        documented: new Set(Object.keys(responses).map(Number)),
        plain: new Set(
          Object.entries(responses)
            .filter(([, r]) => JSON.stringify(r?.content?.['application/json']?.schema ?? null).includes('{"error":{"type":"string"}}'))
            .map(([s]) => Number(s)),
        ),
      });
    }
  }
  const extra = (path: string, documented: number[]) =>
    out.push({ method: 'GET', path: `/api/v1${path}`, key: path, page: false, auth: false, scope: null, query: [], accepts: [], schema: null, documented: new Set(documented), plain: new Set() });
  // The document itself, and a path that no route serves (a structured 404).
  extra('/openapi.json', [200]);
  extra('/no-such-route/:id', [404]);
  for (const p of PAGES) {
    out.push({ method: 'GET', path: p, key: p, page: true, auth: false, scope: null, query: [], accepts: [], schema: null, documented: new Set([200, 404]), plain: new Set() });
  }
  return out;
}

/** A plausible value of a JSON Schema (draft 2020-12 as zod writes it): required fields and some optional ones. */
export function sampleOf(r: Rng, schema: Schema, root: Schema = schema, depth = 0, name = ''): unknown {
  if (!schema || depth > 10) return null;
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref.split('/').pop()!;
    return sampleOf(r, root.$defs?.[ref] ?? root.definitions?.[ref] ?? {}, root, depth + 1, name);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return r.pick(schema.enum);
  if (schema.default !== undefined && r.chance(0.3)) return schema.default;
  const alts: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (alts?.length) {
    const real = alts.filter((a) => a.type !== 'null');
    return sampleOf(r, r.pick(real.length ? real : alts), root, depth + 1, name);
  }
  if (Array.isArray(schema.allOf)) return sampleOf(r, Object.assign({}, ...schema.allOf), root, depth + 1, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [k, v] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(k) || r.chance(0.5)) out[k] = sampleOf(r, v, root, depth + 1, k);
      }
      return out;
    }
    case 'array': {
      // Sampled items are alike, and most lists refuse repeats (names, slots, answers): one item, at most.
      const n = Math.max(schema.minItems ?? 0, r.int(2));
      return Array.from({ length: Math.min(n, 3) }, () => sampleOf(r, schema.items ?? {}, root, depth + 1));
    }
    case 'string':
      // Refinements the document cannot show (zod checks them in code): by the field's name.
      if (/url$/i.test(name)) return 'https://example.com/a.png';
      if (/size$/.test(name)) return '24px';
      if (name in known) return known[name];
      if (/language/.test(name)) return 'en';
      if (/color/.test(name)) return '#123456';
      if (/email/.test(name)) return `fuzz${r.int(1000)}@example.com`;
      if (schema.format === 'email') return `fuzz${r.int(1000)}@example.com`;
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/hook';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (typeof schema.pattern === 'string' && schema.pattern.includes('#')) return '#123456';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 0)).slice(0, schema.maxLength ?? 1000);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
    case 'boolean':
      return r.chance(0.5);
    default:
      return r.pick(['x', 1, true, null]);
  }
}
