import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { isStreamAnswer, type PluginRoute, type RouteAnswer, type RouteSuccess } from './routes';

/**
 * Whether an answer is what its route documents (docs/plugins.md, "Checking answers"): a success status the
 * route declares and, for a JSON body with a `schema`, a body the schema reads without dropping or
 * changing anything (a field the schema does not know is drift too). Used by `createFormloom({
 * strictResponses: true })` and by `checkRouteAnswer` in tests.
 */
export function answerProblem(success: RouteSuccess, answer: RouteAnswer): string | null {
  const status = answer.status ?? 200;
  if (status >= 300) return null;
  const documented = [success, ...(success.others ?? [])];
  const declared = documented.find((d) => d.status === status);
  if (!declared) return `answered ${status}, documented ${documented.map((d) => d.status).join(', ')}`;
  if (isStreamAnswer(answer)) {
    const type = answer.contentType.split(';')[0]!.trim().toLowerCase();
    // A `schema` documents application/json (the OpenAPI document lists it so): a streamed JSON body (the JSON export) is checked by type only.
    const media = [...(declared.schema ? ['application/json'] : []), ...(declared.media ?? [])];
    const ok = media.some((m) => m === type || m === '*/*' || (m.endsWith('/*') && type.startsWith(m.slice(0, -1))));
    return ok ? null : `answered ${type}, not a documented content type (${media.join(', ') || 'none'})`;
  }
  if (!declared.schema) return null;
  const parsed = (declared.schema as z.ZodType).safeParse(answer.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `the body does not match success.schema: ${issue.path.join('.') || '$'}: ${issue.message}`;
  }
  return isDeepStrictEqual(parsed.data, answer.body) ? null : `the body has more than success.schema says: ${firstExtra(parsed.data, answer.body, '$')}`;
}

function firstExtra(kept: unknown, given: unknown, path: string): string {
  if (given && kept && typeof given === 'object' && typeof kept === 'object') {
    for (const k of Object.keys(given)) {
      if (!(k in kept)) return `${path}.${k} is not in the schema`;
      const a = (kept as Record<string, unknown>)[k];
      const b = (given as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(a, b)) return firstExtra(a, b, Array.isArray(given) ? `${path}[${k}]` : `${path}.${k}`);
    }
  }
  return `${path} differs from the schema's reading of it`;
}

/**
 * For a plugin's tests: runs `route`'s handler with `req` and throws when its answer is not what the route
 * documents. Returns the answer.
 */
export async function checkRouteAnswer<F>(route: PluginRoute<F>, req: Parameters<PluginRoute<F>['handler']>[0]): Promise<RouteAnswer> {
  const answer = await route.handler(req);
  const problem = answerProblem(route.success ?? { status: 200, description: 'OK' }, answer);
  if (problem) throw new Error(`${route.method.toUpperCase()} ${route.path}: ${problem}`);
  return answer;
}
