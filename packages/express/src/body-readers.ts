import express, { type RequestHandler } from 'express';
import { assertBodyWithinLimits } from './input-guard';
import { jsonBody } from './host-parsed-body';
import type { RouteSpec } from './route-table';

/** How large a signed PDF sent to `/signing/verify` may be (docs/signing.md, "Verification"). */
const PDF_LIMIT = '20mb';

/** Depth and NUL checks, once, on the parsed body (whoever parsed it), before any schema walks it. */
const checkParsed: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined) assertBodyWithinLimits(req.body);
  next();
};

/**
 * The body readers of one route: JSON where it declares a JSON body, the raw PDF where it accepts one, and
 * nothing where it reads no body. A route that reads no body never answers 413 or a JSON parse error, which
 * is what its OpenAPI operation documents; multipart bodies are streamed by their own handler.
 */
export function bodyReaders(spec: RouteSpec, jsonLimit: string | number = '1mb'): RequestHandler[] {
  // The bytes as sent, for a signature over them (a payment processor's webhook): never parsed here.
  if (spec.rawBody) return [express.raw({ type: () => true, limit: '1mb' })];
  const types = new Set([...(spec.body ? ['application/json'] : []), ...Object.keys(spec.accepts ?? {})]);
  const out: RequestHandler[] = [];
  if (types.has('application/pdf')) out.push(express.raw({ type: 'application/pdf', limit: PDF_LIMIT }));
  if (types.has('application/json')) out.push(jsonBody(jsonLimit));
  if (out.length) out.push(checkParsed);
  return out;
}

/** Whether a route reads a request body (and so may answer 413). */
export const readsBody = (spec: Pick<RouteSpec, 'body' | 'accepts' | 'rawBody'>) => !!spec.body || !!spec.rawBody || Object.keys(spec.accepts ?? {}).length > 0;
