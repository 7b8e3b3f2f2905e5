import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * gzip/brotli for the public endpoints' JSON answers (docs/respondents.md "Speed"): a published form's JSON
 * shrinks by about four fifths. Only `/public/` paths and only `application/json`: the owners' endpoints
 * (some answer JSON after long work, such as signing and voice) and streamed exports, audio and PDFs keep
 * their own framing, lengths and timing.
 */
export function jsonCompression(): RequestHandler {
  return compression({
    filter: (req, res) =>
      req.path.startsWith('/public/') && /^application\/json\b/.test(String(res.getHeader('Content-Type') ?? '')) && compression.filter(req, res),
  });
}
