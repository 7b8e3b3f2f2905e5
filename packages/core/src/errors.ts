/** Error codes of the API's error shape (docs/decisions.md, "Errors"). */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'INSUFFICIENT_CREDITS',
  'KEY_LIMIT_REACHED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'TEXT_TOO_LONG',
  'WARMING_UP',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  INSUFFICIENT_CREDITS: 402,
  KEY_LIMIT_REACHED: 402,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  TEXT_TOO_LONG: 413,
  WARMING_UP: 503,
};

/**
 * A failure the client can act on. `details` are extra top-level members of the structured error body
 * (`reason`, `question_ids`, `upgrade_required`, `form_id`, `saved_as_draft`, `field`, ...).
 */
export class FormloomError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'FormloomError';
    this.status = STATUS[code];
  }

  /** The structured body `{error: {code, message, status, ...details}}`. */
  toBody(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, status: this.status, ...this.details } };
  }
}

/**
 * `value`, or NOT_FOUND when it is null: a conditional write that found its row deleted meanwhile answers
 * as a request made a moment later would (docs/decisions.md "Races with a delete").
 */
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw notFound(what);
  return value;
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new FormloomError('BAD_REQUEST', message, details);
export const unauthorized = (message = 'A valid API key is required') => new FormloomError('UNAUTHORIZED', message);
export const forbidden = (message: string, details?: Record<string, unknown>) =>
  new FormloomError('FORBIDDEN', message, details);
export const notFound = (what: string) => new FormloomError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new FormloomError('CONFLICT', message, details);

export const isFormloomError = (e: unknown): e is FormloomError => e instanceof FormloomError;

/**
 * Waits for every one of `work` (statements sent together inside one transaction), then throws the first
 * failure in order: nothing is left running when the caller goes on to end the transaction.
 */
export async function allSettledOrThrow<T extends readonly unknown[]>(work: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
