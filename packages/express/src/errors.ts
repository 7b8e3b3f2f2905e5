import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { FormloomError, isFormloomError } from '@formloom/core';

type HttpishError = { type?: string; status?: number; statusCode?: number; expose?: boolean; code?: string };

/**
 * Errors Express and body-parser raise for a bad request (an `http-errors` 4xx, a path parameter that is
 * not valid percent-encoding, a body that cannot be decompressed or decoded), as the structured error.
 * Unknown content encodings and charsets are 400s: see docs/decisions.md, "Errors".
 */
export function fromRequestError(err: unknown): FormloomError | null {
  if (isFormloomError(err)) return err;
  if (err instanceof URIError) return new FormloomError('BAD_REQUEST', 'A path parameter is not valid percent-encoded UTF-8');
  if (!err || typeof err !== 'object') return null;
  const e = err as HttpishError;
  switch (e.type) {
    case 'entity.parse.failed':
      return new FormloomError('BAD_REQUEST', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new FormloomError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'encoding.unsupported':
      return new FormloomError('BAD_REQUEST', 'Unsupported Content-Encoding: send the body as is, or gzip, deflate or br', {
        reason: 'unsupported_content_encoding',
      });
    case 'charset.unsupported':
      return new FormloomError('BAD_REQUEST', 'Unsupported charset: send JSON as UTF-8', { reason: 'unsupported_charset' });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return new FormloomError('BAD_REQUEST', 'The request body could not be read');
  }
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  // A zlib failure reaches us as a 400 carrying zlib's own code: the declared Content-Encoding is a lie.
  if (typeof e.code === 'string' && /^(Z_|ERR__ERROR|ERR_BROTLI)/.test(e.code)) {
    return new FormloomError('BAD_REQUEST', 'The request body could not be decoded as its Content-Encoding says', {
      reason: 'undecodable_body',
    });
  }
  switch (status) {
    case 401:
      return new FormloomError('UNAUTHORIZED', 'Authentication required');
    case 403:
      return new FormloomError('FORBIDDEN', 'Not permitted');
    case 404:
      return new FormloomError('NOT_FOUND', 'Not found');
    case 413:
      return new FormloomError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    default:
      return new FormloomError('BAD_REQUEST', 'Bad request');
  }
}

export interface ErrorLogger {
  error(message: string, err: unknown): void;
}

/**
 * When the answer has already begun (a stream failed half-way), no error body can follow: the
 * connection is cut, as Express's own final handler would, so the client sees a truncated answer.
 */
export function abandon(res: Response) {
  res.destroy();
}

/** Every error leaves as `{error: {code, message, status, ...}}`; unexpected ones as a logged 500. */
export function errorHandler(logger: ErrorLogger | ((req: Request) => ErrorLogger)): ErrorRequestHandler {
  return (err, req, res, _next) => {
    try {
      let e = fromRequestError(err);
      if (!e) {
        (typeof logger === 'function' ? logger(req) : logger).error('Unexpected error', err);
        e = new FormloomError('INTERNAL_ERROR', 'An unexpected error occurred; retry with exponential backoff');
      }
      if (res.headersSent) return abandon(res);
      if (e.code === 'RATE_LIMITED' && typeof e.details.retry_after === 'number') {
        res.setHeader('Retry-After', String(e.details.retry_after));
      }
      res.status(e.status).json(e.toBody());
    } catch {
      // Never on to the host's final handler (its page may show a stack trace).
      abandon(res);
    }
  };
}

/** Unknown paths under the mount point answer a structured 404 instead of the host's HTML page. */
export const notFoundHandler: RequestHandler = (req, res) => {
  const e = new FormloomError('NOT_FOUND', `No route for ${req.method} ${req.baseUrl}${req.path}`);
  res.status(404).json(e.toBody());
};
