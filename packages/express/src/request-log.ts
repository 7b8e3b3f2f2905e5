import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ErrorLogger } from './errors';

/**
 * The part of a pino logger Formloom uses (pino, or anything with the same object-first calls). Lines
 * carry only the fields below: never headers, query strings or the raw path, which may hold API keys and
 * tokens (docs/operations.md, "Logs").
 */
export interface HttpLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * A pino-like logger (`HttpLogger`, object first) or the older `{ error(message, err) }` error reporter;
 * which one is told by the presence of `info`. One loose shape so that both type-check as literals.
 */
export interface RouterLogger {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  error(first: any, second?: any): void;
  info?(fields: Record<string, unknown>, message: string): void;
  warn?(fields: Record<string, unknown>, message: string): void;
}

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** An incoming id is kept only when it is a short token, so nothing a client sends can forge log lines. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const REQUEST_ID = Symbol('formloom.requestId');

type Tagged = Request & { [REQUEST_ID]?: string };

export function isHttpLogger(logger: RouterLogger | undefined): logger is HttpLogger {
  return !!logger && typeof logger.info === 'function' && typeof logger.warn === 'function';
}

/** The error reporter the routers use: a pino-like logger gets `{err, request_id}` first, as pino expects. */
export function errorLoggerOf(logger: RouterLogger | undefined): (req: Request | null) => ErrorLogger {
  if (isHttpLogger(logger)) {
    return (req) => ({ error: (message, err) => logger.error({ err, request_id: req ? requestIdOf(req) : undefined }, message) });
  }
  const plain: ErrorLogger = logger ?? { error: (m: string, e: unknown) => console.error(m, e) };
  return () => plain;
}

/** The request's id (set by `requestLogging`), or `undefined` before it ran. */
export function requestIdOf(req: Request): string | undefined {
  return (req as Tagged)[REQUEST_ID];
}

/**
 * The route pattern that answered (`/api/v1/invitations/:token`), never the path itself; `(unmatched)`
 * when no route did (a 404 of an unknown path could carry anything). A route of several patterns
 * (`router.get(['/', '/signup'], ...)`, as the workspace and the pages' assets are served) logs the one
 * the path matches, else all of them.
 */
function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  if (!Array.isArray(path)) return '(unmatched)';
  const patterns = path.filter((p): p is string => typeof p === 'string');
  if (patterns.length === 0) return '(unmatched)';
  const hit = patterns.find((p) => patternMatches(p, req.path));
  return hit !== undefined ? `${req.baseUrl}${hit}` : patterns.map((p) => `${req.baseUrl}${p}`).join('|');
}

/**
 * Whether `path` fits an Express pattern made of literal segments, `:name` (one segment) and `*name` (the
 * rest), as Express matches them (case-insensitive, one trailing slash allowed). Other syntax (`{...}`
 * optional parts) is not read here: such a pattern never matches, and the route logs all its patterns.
 */
function patternMatches(pattern: string, path: string): boolean {
  if (pattern.includes('{')) return false;
  const want = pattern.split('/');
  const got = path.replace(/(.)\/$/, '$1').split('/');
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.startsWith('*')) return got.slice(i).join('/') !== '';
    const g = got[i];
    if (g === undefined) return false;
    if (w.startsWith(':') ? g === '' : w.toLowerCase() !== g.toLowerCase()) return false;
  }
  return got.length === want.length;
}

/**
 * Gives every request an id (a sane `X-Request-Id` from the client, else a new one), echoes it on the
 * answer, and when `logger` is given writes one line per request once the answer is done: id, method,
 * route pattern, status and duration. Mounted twice (by the host and by the router) it acts once.
 */
export function requestLogging(logger?: HttpLogger): RequestHandler {
  return (req, res, next) => {
    startRequestLog(req, res, logger);
    next();
  };
}

/** What `requestLogging` does before it calls `next`, for a middleware that does more in the same step. */
export function startRequestLog(req: Request, res: Response, logger?: HttpLogger): void {
  const tagged = req as Tagged;
  if (tagged[REQUEST_ID]) return;
  const given = req.get(REQUEST_ID_HEADER);
  const id = given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  tagged[REQUEST_ID] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  if (logger) logWhenDone(logger, req, res, id);
}

function logWhenDone(logger: HttpLogger, req: Request, res: Response, id: string) {
  const started = process.hrtime.bigint();
  // 'close' alone: a response emits it once it finished or its client left (one listener, not two `once`).
  res.on('close', () => {
    const fields: Record<string, unknown> = {
      request_id: id,
      method: req.method,
      route: routeOf(req),
      status: res.statusCode,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
    };
    // The client left before the answer ended.
    if (!res.writableFinished) fields.aborted = true;
    if (res.statusCode >= 500 || !res.writableFinished) logger.warn(fields, 'request');
    else logger.info(fields, 'request');
  });
}
