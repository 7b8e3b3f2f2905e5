import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { errorBodySchema, type Formloom } from '@formloom/core';
import { operationIdOf } from '../../src/openapi';
import { routeTable } from '../../src/router';
import type { RouteSpec } from '../../src/route-table';

/** The first difference between what a schema kept and what was answered: a key the schema does not know. */
function firstDifference(kept: unknown, given: unknown, path = '$'): string {
  if (Array.isArray(given) && Array.isArray(kept)) {
    for (let i = 0; i < given.length; i++) if (!isDeepStrictEqual(kept[i], given[i])) return firstDifference(kept[i], given[i], `${path}[${i}]`);
  }
  if (given && kept && typeof given === 'object' && typeof kept === 'object') {
    for (const k of Object.keys(given)) {
      if (!(k in kept)) return `${path}.${k} is answered but not in the schema`;
      const a = (kept as Record<string, unknown>)[k];
      const b = (given as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(a, b)) return firstDifference(a, b, `${path}.${k}`);
    }
  }
  return `${path} differs from the schema's reading of it`;
}

/** Parses `body` with `schema` and demands that nothing was dropped or changed: the schema says all of it. */
export function assertMatches(schema: z.ZodType, body: unknown, what: string): void {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '$'}: ${i.message}`);
    throw new Error(`${what}: the answer does not match its documented schema: ${issues.join('; ')}`);
  }
  if (!isDeepStrictEqual(r.data, body)) throw new Error(`${what}: ${firstDifference(r.data, body)}`);
}

const segments = (p: string) => p.split('/').filter(Boolean);

function matches(spec: RouteSpec, method: string, path: string): boolean {
  if (spec.method !== method.toLowerCase()) return false;
  const want = segments(spec.path);
  const got = segments(path);
  return want.length === got.length && want.every((w, i) => w.startsWith(':') || w === got[i]);
}

/**
 * Checks every JSON answer of the API against the schemas the OpenAPI document is rendered from: a success
 * against its route's `success.schema` (and its status against the documented one), an error against the
 * error shape. A presenter that answers a field its schema lacks, or lacks one it promises, fails the test
 * that made the request. `checked` collects the operationIds whose success bodies were checked.
 */
export function responseChecker(formloom: Formloom) {
  let table: RouteSpec[] | undefined;
  const checked = new Set<string>();
  const check = (method: string, pathAndQuery: string, status: number, contentType: string | null, body: unknown) => {
    table ??= routeTable(formloom);
    const path = pathAndQuery.split('?')[0]!;
    const spec = table.find((s) => matches(s, method, path));
    if (!spec) return;
    const what = `${method.toUpperCase()} ${spec.path} (${status})`;
    const isJson = /^application\/json/i.test(contentType ?? '');
    if (status < 300) {
      const documented = [spec.success, ...(spec.success.others ?? [])];
      const success = documented.find((d) => d.status === status);
      if (!success) throw new Error(`${what}: answered ${status}, documented ${documented.map((d) => d.status).join(', ')}`);
      const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
      const media = success.media ?? [];
      if (!isJson && !media.some((m) => m === type || m === '*/*' || (m.endsWith('/*') && type.startsWith(m.slice(0, -1))))) throw new Error(`${what}: answered ${type}, not a documented content type`);
      if (isJson && success.schema) {
        assertMatches(success.schema, body, what);
        checked.add(operationIdOf(spec));
      }
      return;
    }
    if (!isJson || status < 400) return;
    const own = spec.errorBodies?.[status];
    if (own && own.safeParse(body).success) return;
    assertMatches(errorBodySchema, body, what);
  };
  return { check, checked };
}
