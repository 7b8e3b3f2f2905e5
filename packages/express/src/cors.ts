import type { Request, RequestHandler, Response } from 'express';
import type { EmbedOrigins } from './security-headers';

/*
 * Cross-origin access for the element embedded on other sites (docs/respondents.md "Embedding"): the
 * public form endpoints answer CORS for the embedding origins; key-authenticated endpoints never do, so a
 * page elsewhere cannot read an owner's data with a key it happens to hold.
 */

/** The `Access-Control-Allow-Origin` value for a request from `origin`, or null when it is not allowed. */
export function allowedOrigin(embed: EmbedOrigins, origin: string | undefined): string | null {
  if (embed === '*') return '*';
  if (!origin) return null;
  for (const o of embed) {
    if (o === "'self'") continue;
    if (o === 'https:' || o === 'http:') {
      if (origin.startsWith(`${o}//`)) return origin;
      continue;
    }
    if (o.includes('://*.')) {
      const [scheme, rest] = o.split('://*.') as [string, string];
      if (origin.startsWith(`${scheme}://`) && origin.endsWith(`.${rest}`) && origin.length > scheme.length + 4 + rest.length) return origin;
      continue;
    }
    if (o.toLowerCase() === origin.toLowerCase()) return origin;
  }
  return null;
}

/** Sets the CORS headers of a public answer; the answer varies by `Origin` unless every origin is allowed. */
export function setCorsHeaders(res: Parameters<RequestHandler>[1], embed: EmbedOrigins, origin: string | undefined): void {
  const allowed = allowedOrigin(embed, origin);
  if (embed !== '*') res.vary('Origin');
  if (allowed) res.setHeader('Access-Control-Allow-Origin', allowed);
}

/**
 * CORS for the API router's `/public/` paths only, with their preflight (JSON bodies, `X-Resume-Token` and `Idempotency-Key`
 * make the element's POST and PATCH non-simple requests).
 */
export function publicCors(embed: EmbedOrigins): RequestHandler {
  return (req, res, next) => {
    if (!answerPublicCors(embed, req, res)) next();
  };
}

/** What `publicCors` does; true when it answered the request (a preflight), for a middleware that does more. */
export function answerPublicCors(embed: EmbedOrigins, req: Request, res: Response): boolean {
  if (!req.path.startsWith('/public/')) return false;
  setCorsHeaders(res, embed, req.headers.origin);
  if (req.method !== 'OPTIONS') return false;
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Resume-Token, Idempotency-Key');
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
  return true;
}
