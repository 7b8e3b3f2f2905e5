import express, { type Request, type RequestHandler, type Router } from 'express';
import { BUILT_IN_AREAS, type Formloom } from '@formloom/core';
import { apiKeyAuthenticator, checkPrincipal, hostOrApiKey, type AuthenticateHook } from './auth';
import { errorHandler, notFoundHandler } from './errors';
import { errorLoggerOf, isHttpLogger, startRequestLog, type RouterLogger } from './request-log';
import { API_KEY_SECURITY, assertDocumentable, buildOpenApi, HOST_SECURITY, operationIdOf } from './openapi';
import { assertNoNulCharacters } from './input-guard';
import { bodyReaders } from './body-readers';
import { RateLimits, requestIp, type RateLimitOptions } from './rate-limit';
import { checkEmbedOrigins, setApiSecurityHeaders, type EmbedOrigins } from './security-headers';
import { answerPublicCors } from './cors';
import type { RouteContext, RouteSpec } from './route-table';
import { AREA_ROUTES } from './routes';
import { fromPluginRoute } from './plugin-routes';
import { assertDocumented, LazySignalContext, sendAnswer } from './answer';
import { SessionMount, type SessionOptions } from './session-auth';
import { sessionRoutes } from './routes/sessions';
import { SESSION_SECURITY } from './openapi-security';
import { mountMethodNotAllowed } from './method-not-allowed';
import { compressionOf, jsonCompression } from './json-compression';

export interface FormloomRouterOptions {
  /** The instance from `createFormloom(...)`. */
  formloom: Formloom;
  /** Replaces API-key authentication with the host's own; return `null` for an unauthenticated request. */
  authenticate?: AuthenticateHook;
  /** With `authenticate`: Formloom API keys (`Bearer fl_...`) are taken too, for scripts (docs/embedding.md). */
  apiKeys?: boolean;
  /**
   * How `GET /openapi.json` describes the host's authentication when `authenticate` is given: an OpenAPI
   * security scheme object, e.g. `{type: 'apiKey', in: 'cookie', name: 'session'}` (default: a bearer
   * scheme saying that the host authenticates). Ignored without `authenticate`.
   */
  securityScheme?: Record<string, unknown>;
  /** Largest JSON body accepted (default `1mb`). */
  jsonLimit?: string | number;
  /**
   * A pino-like logger (`pino()`): one JSON line per request (id, method, route pattern, status, ms) and
   * unexpected errors, with no secrets (docs/operations.md). The older `{ error(message, err) }` reporter
   * gets unexpected errors only. Default: errors to the console, no request lines.
   */
  logger?: RouterLogger;
  /**
   * Extra Express routes of the host, served and documented like the built-in ones. Prefer plugin routes
   * (`createFormloom({ plugins })`, docs/plugins.md), which need no Express types.
   */
  routes?: RouteSpec[];
  /** Per-key, per-IP and failed-authentication limits (docs/security.md); `false` turns them all off. */
  rateLimits?: RateLimitOptions | false;
  /**
   * Origins whose pages may call the public form endpoints (CORS), where `<formloom-form>` is embedded:
   * `*` (default) or a list like the pages router's `embedOrigins`. Authenticated endpoints never answer CORS.
   */
  embedOrigins?: EmbedOrigins;
  /**
   * People sign in with the router's own endpoints (`/auth/*`, `/account/*`) and a session cookie that every
   * route accepts like a key (docs/accounts.md). The self-hosted app passes it; a host with its own
   * `authenticate` cannot (its hook stays the only identity).
   */
  sessions?: SessionOptions;
}

/** The Express endpoints of every built-in area, in mount order. */
export const BUILT_IN_ROUTES: readonly RouteSpec[] = Object.values(AREA_ROUTES).flat();

/** The table an instance is served with: its areas' built-in groups, then its plugins' routes, then the host's. */
export function routeTable(formloom: Formloom, extra: readonly RouteSpec[] = []): RouteSpec[] {
  const table = [...formloom.plugins.flatMap((p) => AREA_ROUTES[p.name] ?? []), ...formloom.routes.map(fromPluginRoute), ...extra];
  // A second route with the same method and path would never be reached: refuse it while mounting.
  const seen = new Set<string>();
  const ids = new Map<string, string>();
  for (const r of table) {
    const key = `${r.method.toUpperCase()} ${r.path.replace(/:[A-Za-z_]+/g, ':')}`;
    if (seen.has(key)) throw new Error(`Two routes for ${r.method.toUpperCase()} ${r.path}: each method and path may be served once`);
    seen.add(key);
    // Typed clients name their methods after operationIds: two operations may not share one.
    const id = operationIdOf(r);
    const other = ids.get(id);
    if (other) throw new Error(`Two routes with operationId ${id} (${other} and ${r.method.toUpperCase()} ${r.path})`);
    ids.set(id, `${r.method.toUpperCase()} ${r.path}`);
  }
  return table;
}

const BUILT_IN_AREA_NAMES = new Set(BUILT_IN_AREAS.map((a) => a.name));

/** Of the served `routes` (one per method and path: routeTable), the plugins' and the host's, as served. */
function ownRoutes(formloom: Formloom, hostRoutes: readonly RouteSpec[] | undefined, routes: RouteSpec[]): RouteSpec[] {
  const key = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method} ${r.path}`;
  const own = new Set([...formloom.routes.filter((r) => !BUILT_IN_AREA_NAMES.has(r.plugin)).map((r) => key(r.route)), ...(hostRoutes ?? []).map(key)]);
  return routes.filter((r) => own.has(key(r)));
}

/**
 * The documented HTTP API as a Router to mount at `/api/v1`. It parses JSON only for its own routes
 * and answers every error in the structured shape; it starts nothing in the background.
 */
export function createFormloomRouter(options: FormloomRouterOptions): Router {
  const { formloom } = options;
  if (options.sessions && options.authenticate) throw new Error('createFormloomRouter: `sessions` and `authenticate` exclude each other (the host\'s hook is the only identity)');
  const mount = options.sessions ? new SessionMount(formloom, options.sessions) : null;
  const limits = new RateLimits(formloom, options.rateLimits);
  const hook = options.authenticate && options.apiKeys ? hostOrApiKey(options.authenticate, formloom) : options.authenticate;
  const keys = hook ?? apiKeyAuthenticator(formloom);
  const authenticate = limits.authenticate(mount ? mount.authenticator(keys) : keys, !!options.authenticate);
  const routes = routeTable(formloom, [...(mount ? sessionRoutes(mount) : []), ...(options.routes ?? [])]).map(limits.guard);
  const compress = jsonCompression();
  const errorsOf = errorLoggerOf(options.logger);
  const router = express.Router();
  // Every answer, errors included, carries X-Request-Id (a host that mounted requestLogging already keeps its
  // id), the security headers, and on /public/ paths CORS. One middleware for the three: each layer of the
  // router costs its own matching and allocations at every request (docs/benchmarks.md, "CPU per cached GET").
  const httpLogger = isHttpLogger(options.logger) ? options.logger : undefined;
  const embed = checkEmbedOrigins(options.embedOrigins ?? '*');
  router.use((req, res, next) => {
    startRequestLog(req, res, httpLogger);
    setApiSecurityHeaders(req, res);
    if (!answerPublicCors(embed, req, res)) next();
  });

  const security = options.authenticate ? { ...HOST_SECURITY, scheme: options.securityScheme ?? HOST_SECURITY.scheme, ...(options.apiKeys ? { alsoApiKeys: true } : {}) } : API_KEY_SECURITY;
  // A plugin's or a host's route that cannot be documented stops the mount, not GET /openapi.json later. The
  // built-in routes' document is checked by the test suite; building it at every start would only hold memory.
  assertDocumentable(ownRoutes(formloom, options.routes, routes), routes, { security });
  let openapi: unknown;
  router.get('/openapi.json', (req: Request, res) => {
    openapi ??= buildOpenApi(routes, req.baseUrl || '/', { security, ...(mount ? { alternatives: [SESSION_SECURITY] } : {}) });
    res.json(openapi);
  });

  /** The caller of an authenticated route; null on a route that also serves anonymous requests, called without credentials. */
  const principalOf = async (spec: RouteSpec, req: Request) => {
    const found = await authenticate(req);
    if (!found && spec.anonymous) return null;
    return { ...checkPrincipal(found, req, spec.scope!, !!options.authenticate), ip_address: requestIp(req) ?? null };
  };

  for (const spec of routes) {
    const handler: RequestHandler = async (req, res) => {
      assertNoNulCharacters({ params: req.params, query: req.query });
      const principal = spec.scope ? await principalOf(spec, req) : null;
      const ctx = new LazySignalContext(req, formloom, principal) as RouteContext;
      const answer = await spec.handler(ctx);
      if (formloom.strictResponses) assertDocumented(spec, answer);
      await sendAnswer(res, answer, ctx, errorsOf(req));
    };
    // Each route reads only the bodies it declares (body-readers.ts).
    router[spec.method](spec.path, ...compressionOf(spec, compress), ...bodyReaders(spec, options.jsonLimit), handler);
  }

  mountMethodNotAllowed(router, routes, [{ method: 'get', path: '/openapi.json' }]);
  router.use(notFoundHandler);
  router.use(errorHandler(errorsOf));
  return router;
}
