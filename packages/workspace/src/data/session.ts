import { type Api, ApiError } from './client';

/*
 * The session endpoint of the sign-in contract (docs/accounts.md "Sessions"). It is documented only when the
 * router runs with sessions, so its types are written here from that contract rather than generated.
 */

export interface SessionUser {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  email_verified?: boolean;
}

export interface SessionInfo {
  user: SessionUser;
  csrf_token: string;
}

/** The signed-in person, or null when there is no session (401) or sessions are off (404). */
export async function readSession(api: Api): Promise<SessionInfo | null> {
  let res: Response;
  try {
    res = await fetch(`${api.base}/auth/session`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  // The body is always read: an unread one keeps the request open in the browser.
  const body: unknown = await res.json().catch(() => undefined);
  if (res.status === 401 || res.status === 404) return null;
  if (!res.ok) throw ApiError.from(res.status, body);
  const info = body as SessionInfo;
  api.setCsrfToken(info.csrf_token);
  return info;
}
