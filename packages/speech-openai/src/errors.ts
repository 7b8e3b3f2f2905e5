/** What went wrong talking to the speech server; the voice service credits the request back for any of them. */
export type OpenAiSpeechErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'bad_request'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'unreachable'
  | 'bad_response';

/** A failed call to an OpenAI-compatible speech server, with the HTTP status when there was one. */
export class OpenAiSpeechError extends Error {
  constructor(
    readonly code: OpenAiSpeechErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OpenAiSpeechError';
  }
}

const HINTS: Record<OpenAiSpeechErrorCode, string> = {
  unauthorized: 'check the apiKey option',
  not_found: 'check baseUrl (it ends with /v1), the model and the voice',
  bad_request: 'the server refused the request',
  rate_limited: 'the server is rate limiting',
  server_error: 'the server failed',
  timeout: 'no complete answer in time',
  unreachable: 'the server cannot be reached',
  bad_response: 'the answer is not raw PCM',
};

function codeForStatus(status: number): OpenAiSpeechErrorCode {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
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
  );
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
