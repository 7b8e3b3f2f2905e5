import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * gzip/brotli for the API's JSON answers (docs/respondents.md "Speed"): a published form's JSON shrinks by about
 * four fifths. Only `application/json`: streamed exports, audio and PDFs keep their own framing, byte ranges
 * and lengths.
 */
export function jsonCompression(): RequestHandler {
  return compression({
    filter: (req, res) => /^application\/(?:problem\+)?json\b/.test(String(res.getHeader('Content-Type') ?? '')) && compression.filter(req, res),
  });
}
