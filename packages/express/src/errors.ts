import type { ErrorRequestHandler, RequestHandler } from 'express';
import { FormloomError, isFormloomError } from '@formloom/core';

/** Body-parser failures carry `type` and `status`; map them to the structured shape. */
function fromParserError(err: { type?: string; status?: number; message?: string }): FormloomError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new FormloomError('BAD_REQUEST', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new FormloomError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new FormloomError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request body encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new FormloomError('BAD_REQUEST', 'The request body could not be read');
    default:
      return null;
  }
}

export interface ErrorLogger {
  error(message: string, err: unknown): void;
}

/** Every error leaves as `{error: {code, message, status, ...}}`; unexpected ones as a logged 500. */
export function errorHandler(logger: ErrorLogger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    let e: FormloomError | null = isFormloomError(err) ? err : fromParserError(err ?? {});
    if (!e) {
      logger.error('Unexpected error', err);
      e = new FormloomError('INTERNAL_ERROR', 'An unexpected error occurred; retry with exponential backoff');
    }
    if (e.code === 'RATE_LIMITED' && typeof e.details.retry_after === 'number') {
      res.setHeader('Retry-After', String(e.details.retry_after));
    }
    res.status(e.status).json(e.toBody());
  };
}

/** Unknown paths under the mount point answer a structured 404 instead of the host's HTML page. */
export const notFoundHandler: RequestHandler = (req, res) => {
  const e = new FormloomError('NOT_FOUND', `No route for ${req.method} ${req.baseUrl}${req.path}`);
  res.status(404).json(e.toBody());
};
