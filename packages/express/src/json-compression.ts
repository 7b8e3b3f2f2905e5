import compression from 'compression';
import type { RequestHandler } from 'express';
import type { RouteSpec } from './route-table';

/**
 * gzip/brotli for the public endpoints' JSON answers (docs/respondents.md "Speed"): a published form's JSON
 * shrinks by about four fifths. Mounted on the `/public` reads that answer JSON only (`compressionOf`): the
 * owners' endpoints (some answer JSON after long work, such as signing and voice) and streamed exports,
 * uploads, audio and PDFs keep their own framing, lengths and timing, and their requests skip the
 * middleware's per-request set-up altogether (about 4 kB of allocation per request, docs/benchmarks.md,
 * "The cached read"). Only `application/json` answers to GET and HEAD.
 */
export function jsonCompression(): RequestHandler {
  const compress = compression({
    filter: (req, res) => /^application\/json\b/.test(String(res.getHeader('Content-Type') ?? '')) && compression.filter(req, res),
  });
  // Reads only: a form's definition is what is worth compressing. A submission's answer is its own
  // response, a kilobyte or two, and the middleware's set-up cost each submission about 60 µs of CPU for
  // nothing (docs/benchmarks.md, "The cached read").
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? compress(req, res, next) : next());
}

/**
 * The compression a route's handlers start with: `compress` for a `/public` GET documented as JSON, none for
 * the rest. A download (an upload's file) used to pass through it too: the middleware wraps the response and
 * adds its own listeners to an answer it never compresses.
 */
export function compressionOf(spec: Pick<RouteSpec, 'method' | 'path' | 'success'>, compress: RequestHandler): RequestHandler[] {
  const publicRead = spec.method === 'get' && (spec.path === '/public' || spec.path.startsWith('/public/'));
  return publicRead && !spec.success.media ? [compress] : [];
}
