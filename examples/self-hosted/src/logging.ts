import { destination as pinoDestination, pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { Logger } from '@formloom/core';
import type { LogLevel } from './config';

/**
 * Anything that could carry a credential, should a line ever include request or response objects: pino
 * replaces them with `[redacted]`. The request lines themselves carry no headers, query or raw path
 * (docs/operations.md, "Logs").
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-resume-token"]',
  'req.headers["x-access-token"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-resume-token"]',
  'headers["x-access-token"]',
  'api_key',
  'secret',
  'token',
  'password',
];

/**
 * The app's JSON-lines logger on stdout (or `destination`, for tests), at `FORMLOOM_LOG_LEVEL`. Stdout is
 * written asynchronously, in writes of at least 4 kB (about 20 request lines) or every 250 ms, whichever
 * comes first: a write per request line cost about 120 µs of CPU per request (docs/benchmarks.md), and
 * pino writes what is left when the process exits.
 */
export function createAppLogger(level: LogLevel, destination?: DestinationStream): Pino {
  const options = { level, base: { service: 'formloom', pid: process.pid }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return pino(options, destination ?? pinoDestination({ dest: 1, sync: false, minLength: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS }));
}

/** Stdout gets log lines in writes of this many bytes at least, or after LOG_FLUSH_MS. */
const LOG_WRITE_BYTES = 4096;
const LOG_FLUSH_MS = 250;

/** The core's `Logger` (message first) over pino (fields first): the instance, its worker and plugins log as JSON too. */
export function coreLogger(log: Pino): Logger {
  return {
    info: (message, details) => log.info(details ?? {}, message),
    warn: (message, details) => log.warn(details ?? {}, message),
    error: (message, details) => log.error(details ?? {}, message),
  };
}
