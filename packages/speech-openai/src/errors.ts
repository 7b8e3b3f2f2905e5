/** What went wrong talking to the speech server; the voice service credits the request back for any of them. */
export type OpenAiSpeechErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'bad_request'
  | 'rate_limited'
  | 'server_error'
  | 'warming_up'
  | 'timeout'
  | 'unreachable'
  | 'bad_response';

/**
 * A failed call to an OpenAI-compatible speech server, with the HTTP status when there was one. A 503
 * (`warming_up`: the server is loading its model) says `warmingUp: true` with the server's `Retry-After`
 * (default 5 s), so the voice API answers 503 `WARMING_UP` (core's `engineWarmingUp`).
 */
export class OpenAiSpeechError extends Error {
  constructor(
    readonly code: OpenAiSpeechErrorCode,
    message: string,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'OpenAiSpeechError';
  }

  get warmingUp(): boolean {
    return this.code === 'warming_up';
  }
}

const HINTS: Record<OpenAiSpeechErrorCode, string> = {
  unauthorized: 'check the apiKey option',
  not_found: 'check baseUrl (it ends with /v1), the model and the voice',
  bad_request: 'the server refused the request',
  rate_limited: 'the server is rate limiting',
  server_error: 'the server failed',
  warming_up: 'the server is starting',
  timeout: 'no complete answer in time',
  unreachable: 'the server cannot be reached',
  bad_response: 'the answer is not raw PCM',
};

function codeForStatus(status: number): OpenAiSpeechErrorCode {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'warming_up';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/** The error for a non-2xx answer, quoting the server's own message (`{error: {message}}` or text). */
export async function errorFromResponse(url: string, response: Response): Promise<OpenAiSpeechError> {
  const code = codeForStatus(response.status);
  let detail = '';
  try {
    const text = (await response.text()).slice(0, 2000);
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
      const fromError = typeof body.error === 'string' ? body.error : body.error?.message;
      const found = fromError ?? body.message ?? body.detail;
      detail = typeof found === 'string' ? found : found === undefined ? text : JSON.stringify(found);
    } catch {
      detail = text;
    }
  } catch {
    detail = '';
  }
  detail = detail.replace(/\s+/g, ' ').trim().slice(0, 300);
  return new OpenAiSpeechError(
    code,
    `speech server ${url} answered ${response.status}${detail ? `: ${detail}` : ''} (${HINTS[code]})`,
    response.status,
    code === 'warming_up' ? retryAfterSeconds(response.headers.get('retry-after')) : undefined,
  );
}

/** `Retry-After` as seconds (a number or an HTTP date), at least 1; 5 when absent or unreadable. */
function retryAfterSeconds(value: string | null): number {
  if (!value) return 5;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 5;
}

export function timeoutError(url: string, timeoutMs: number): OpenAiSpeechError {
  return new OpenAiSpeechError('timeout', `speech server ${url} did not answer within ${timeoutMs} ms (${HINTS.timeout})`);
}

export function unreachableError(url: string, cause: unknown): OpenAiSpeechError {
  const reason = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
  return new OpenAiSpeechError('unreachable', `speech server ${url} cannot be reached: ${reason} (${HINTS.unreachable})`);
}

export function badResponseError(url: string, contentType: string): OpenAiSpeechError {
  return new OpenAiSpeechError(
    'bad_response',
    `speech server ${url} answered ${contentType || 'without a content type'} instead of raw PCM (${HINTS.bad_response})`,
    200,
  );
}
