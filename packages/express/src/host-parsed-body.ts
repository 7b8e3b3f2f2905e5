import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { FormloomError } from '@formloom/core';
import { errorHandler } from './errors';
import { errorLoggerOf, type RouterLogger } from './request-log';

/*
 * Hosts often install `express.json()` app-wide, before our router (docs/embedding.md "Body parsers"). Its
 * parser then reads the body first: ours skips, the host's limit applies, and its errors never enter our
 * router. These two pieces keep the API's answers the same in that arrangement: the body parser below still
 * holds an already parsed body to `jsonLimit`, and `createFormloomErrorHandler`, mounted after the router on
 * the same path, answers the host parser's errors in the structured shape instead of Express's HTML page.
 */

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `jsonLimit` in bytes: a number, or a size like `100kb` or `1mb` (body-parser's units, powers of 1024). */
export function limitBytes(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!m) throw new Error(`jsonLimit: ${JSON.stringify(limit)} is not a size like 100kb or 1mb`);
  return Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]!);
}

/**
 * The router's JSON body parser. When another parser already consumed the request, the parsed body is
 * measured instead (its `Content-Length`, else its JSON length) and refused over `limit` with 413.
 */
export function jsonBody(limit: string | number): RequestHandler {
  const max = limitBytes(limit);
  const parse = express.json({ limit: max });
  return (req, res, next) => {
    if (!req.readableEnded || req.body === undefined) return parse(req, res, next);
    // A body read as something else (the signing PDF read raw) is not ours to measure.
    if (!req.is('application/json')) return next();
    const declared = Number(req.headers['content-length']);
    const size = Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify(req.body) ?? '');
    if (size > max) return next(new FormloomError('PAYLOAD_TOO_LARGE', 'The request body is too large'));
    next();
  };
}

/**
 * The API's error handler for a host whose own body parser runs before the router: mount it right after,
 * on the same path (`app.use('/api/v1', api, createFormloomErrorHandler())`), so malformed JSON is a 400
 * and a too-large body a 413 in the structured shape (docs/embedding.md "Body parsers").
 */
export function createFormloomErrorHandler(options: { logger?: RouterLogger } = {}): ErrorRequestHandler {
  return errorHandler(errorLoggerOf(options.logger));
}
