import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths, components } from './api-types';

/*
 * The workspace's one way to reach the server: openapi-fetch typed by the generated document
 * (api-types.ts), cookies included (the self-hosted app's session or an embedding host's own cookie), and the
 * CSRF header that cookie-authenticated writes need (docs/workspace.md, "Sign-in and CSRF").
 */

export type ApiClient = Client<paths>;
export type Schemas = components['schemas'];

/** The structured error every endpoint answers (`{error: {code, message, status, reason?}}`). */
export interface ApiErrorBody {
  error: { code: string; message: string; status: number; reason?: string; [extra: string]: unknown };
}

/** A failed call, with the server's message, for screens to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reason?: string,
    /** The whole `error` object: `question_ids`, `signed_contracts` and other members some errors carry. */
    readonly details?: unknown,
  ) {
    super(message);
  }
  static from(status: number, body: unknown): ApiError {
    const e = (body as Partial<ApiErrorBody> | undefined)?.error;
    if (e && typeof e.message === 'string') return new ApiError(status, e.code, e.message, e.reason, e);
    return new ApiError(status, status === 0 ? 'NETWORK' : 'UNKNOWN', status === 0 ? 'The server could not be reached.' : `The server answered ${status}.`);
  }
}

/** Where the API is and the CSRF token of the current session (set after the session is read). */
export interface Api {
  client: ApiClient;
  base: string;
  setCsrfToken(token: string | null): void;
  /** The CSRF token of the current session, `null` before a session is read. */
  csrfToken(): string | null;
}

/**
 * What an element placed alone in a host page dispatches when the API answers 401 (the host's session ended):
 * it bubbles out of the element's shadow root (`composed`), so the host listens on `document` and sends the
 * person to its own sign-in (docs/workspace.md, "In your own page").
 */
export const UNAUTHORIZED_EVENT = 'formloom-unauthorized';

/** Dispatches `UNAUTHORIZED_EVENT` from `el` (the element the host placed): `detail` says which call failed. */
export const unauthorizedNotice = (el: EventTarget) => (request: Request) =>
  void el.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { bubbles: true, composed: true, detail: { status: 401, method: request.method, url: request.url } }));

/** `onUnauthorized` is called at every 401 answer (an element in a host page tells the host: `unauthorizedNotice`). */
export function createApi(base: string, options: { onUnauthorized?: (request: Request) => void } = {}): Api {
  let csrf: string | null = null;
  const csrfHeader: Middleware = {
    onRequest({ request }) {
      if (csrf && request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('X-Formloom-CSRF', csrf);
      return request;
    },
  };
  const client = createClient<paths>({ baseUrl: base.replace(/\/+$/, ''), credentials: 'same-origin' });
  client.use(csrfHeader);
  const { onUnauthorized } = options;
  if (onUnauthorized) {
    client.use({
      onResponse({ request, response }) {
        if (response.status === 401) onUnauthorized(request);
        return response;
      },
    });
  }
  return { client, base, setCsrfToken: (t) => void (csrf = t), csrfToken: () => csrf };
}

/** The answer's data, or throws ApiError with the server's message. */
export function unwrap<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || !r.response.ok) throw ApiError.from(r.response.status, r.error);
  return r.data as T;
}

/** Turns a network failure (fetch rejects) into an ApiError with status 0. */
export async function call<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let r: { data?: T; error?: unknown; response: Response };
  try {
    r = await p;
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  return unwrap(r);
}
