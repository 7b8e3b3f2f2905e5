import express, { type Request, type RequestHandler, type Router } from 'express';
import type { Formloom } from '@formloom/core';
import { apiKeyAuthenticator, requirePrincipal, type AuthenticateHook } from './auth';
import { errorHandler, notFoundHandler, type ErrorLogger } from './errors';
import { buildOpenApi } from './openapi';
import { assertBodyWithinLimits, assertNoNulCharacters } from './input-guard';
import { RateLimits, type RateLimitOptions } from './rate-limit';
import { apiSecurityHeaders, checkEmbedOrigins, type EmbedOrigins } from './security-headers';
import { publicCors } from './cors';
import type { RouteContext, RouteSpec } from './route-table';
import { formRoutes } from './routes/forms';
import { publishingRoutes } from './routes/publishing';
import { responseRoutes } from './routes/responses';
import { webhookRoutes } from './routes/webhooks';
import { uploadRoutes } from './routes/uploads';
import { teamRoutes } from './routes/teams';

export interface FormloomRouterOptions {
  /** The instance from `createFormloom(...)`. */
  formloom: Formloom;
  /** Replaces API-key authentication with the host's own; return `null` for an unauthenticated request. */
  authenticate?: AuthenticateHook;
  /** Largest JSON body accepted (default `1mb`). */
  jsonLimit?: string | number;
  /** Where unexpected errors are reported (default: console). */
  logger?: ErrorLogger;
  /** Extra routes (later capabilities, or a host's additions) served and documented like the built-in ones. */
  routes?: RouteSpec[];
  /** Per-key, per-IP and failed-authentication limits (docs/security.md); `false` turns them all off. */
  rateLimits?: RateLimitOptions | false;
  /**
   * Origins whose pages may call the public form endpoints (CORS), where `<formloom-form>` is embedded:
   * `*` (default) or a list like the pages router's `embedOrigins`. Authenticated endpoints never answer CORS.
   */
  embedOrigins?: EmbedOrigins;
}

/** The built-in endpoints, in mount order. */
export const BUILT_IN_ROUTES: readonly RouteSpec[] = [
  ...formRoutes,
  ...publishingRoutes,
  ...responseRoutes,
  ...uploadRoutes,
  ...webhookRoutes,
  ...teamRoutes,
];

/**
 * The documented HTTP API as a Router to mount at `/api/v1`. It parses JSON only for its own routes
 * and answers every error in the structured shape; it starts nothing in the background.
 */
export function createFormloomRouter(options: FormloomRouterOptions): Router {
  const { formloom } = options;
  const limits = new RateLimits(formloom, options.rateLimits);
  const authenticate = limits.authenticate(options.authenticate ?? apiKeyAuthenticator(formloom), !!options.authenticate);
  const routes = [...BUILT_IN_ROUTES, ...(options.routes ?? [])].map(limits.guard);
  const router = express.Router();
  router.use(apiSecurityHeaders);
  router.use(publicCors(checkEmbedOrigins(options.embedOrigins ?? '*')));
  router.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
  // Depth and NUL checks run once, on the parsed body, before any route or schema walks it.
  router.use((req, _res, next) => {
    if (req.body !== undefined) assertBodyWithinLimits(req.body);
    next();
  });

  let openapi: unknown;
  router.get('/openapi.json', (req: Request, res) => {
    openapi ??= buildOpenApi(routes, req.baseUrl || '/');
    res.json(openapi);
  });

  for (const spec of routes) {
    const handler: RequestHandler = async (req, res) => {
      assertNoNulCharacters({ params: req.params, query: req.query });
      const principal = spec.scope ? { ...(await requirePrincipal(authenticate, req, spec.scope, !!options.authenticate)), ip_address: req.ip ?? null } : null;
      const ctx = { req, res, formloom, principal } as RouteContext;
      const result = await spec.handler(ctx);
      if (!result) return;
      if (result.headers) res.set(result.headers);
      res.status(result.status ?? 200).json(result.body);
    };
    router[spec.method](spec.path, handler);
  }

  router.use(notFoundHandler);
  router.use(errorHandler(options.logger ?? { error: (m, e) => console.error(m, e) }));
  return router;
}
