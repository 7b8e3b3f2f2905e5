import { type Api, ApiError } from './client';
import type { SessionInfo, SessionUser } from './session';

/*
 * The sign-in and account endpoints of docs/accounts.md. They are served only when the router runs with sessions
 * (the self-hosted app), so an embedding host's document lacks them: their calls are written here by hand, in the
 * same error shape as the generated ones.
 */

export interface AuthConfig {
  signup: 'open' | 'invite' | 'closed';
  has_users: boolean;
  passkeys: boolean;
  email_links: boolean;
}

export interface Passkey {
  id: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface ActiveSession {
  id: string;
  created_at: string;
  last_seen_at: string | null;
  expires_at: string;
  user_agent: string | null;
  ip_address: string | null;
  current: boolean;
}

export interface ApiKeyItem {
  key_id: string;
  name: string | null;
  scope: 'forms' | 'voice';
  monthly_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
}

export interface AccountInfo {
  user: SessionUser & { plan: string; created_at: string };
  is_admin: boolean;
}

/** One JSON call: the body on success, else ApiError with the server's message (status 0 when unreachable). */
export async function request<T>(api: Api, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const csrf = api.csrfToken();
  if (csrf && method !== 'GET') headers['x-formloom-csrf'] = csrf;
  let res: Response;
  try {
    res = await fetch(`${api.base}${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) throw ApiError.from(res.status, data);
  return data as T;
}

/** What a sign-in answers; the CSRF token is kept for the calls that follow. */
function adopt(api: Api, info: { user: SessionUser; csrf_token: string }): SessionInfo {
  api.setCsrfToken(info.csrf_token);
  return info;
}

export const authConfig = (api: Api) => request<AuthConfig>(api, 'GET', '/auth/config');

export async function signIn(api: Api, email: string, password: string) {
  return adopt(api, await request(api, 'POST', '/auth/signin', { email, password }));
}

/**
 * Signs up: the first account and an invitation's sign-up answer a session at once; any other answers
 * `{sent: true}` (`null` here): the account is made from the mailed link (`finishSignUp`).
 */
export async function signUp(api: Api, input: { email: string; password: string; first_name?: string; last_name?: string; invitation_token?: string }): Promise<SessionInfo | null> {
  const answer = await request<{ user?: SessionUser; csrf_token?: string; sent?: boolean }>(api, 'POST', '/auth/signup', input);
  return answer.user && answer.csrf_token ? adopt(api, { user: answer.user, csrf_token: answer.csrf_token }) : null;
}

export async function finishSignUp(api: Api, token: string, password: string) {
  return adopt(api, await request(api, 'POST', '/auth/signup/finish', { token, password }));
}

export const requestEmailLink = (api: Api, email: string) => request<{ sent: boolean }>(api, 'POST', '/auth/email-link', { email });

export async function verifyEmailLink(api: Api, token: string) {
  return adopt(api, await request(api, 'POST', '/auth/email-link/verify', { token }));
}

export const requestPasswordReset = (api: Api, email: string) => request<{ sent: boolean }>(api, 'POST', '/auth/password-reset', { email });

export async function completePasswordReset(api: Api, token: string, password: string) {
  return adopt(api, await request(api, 'POST', '/auth/password-reset/complete', { token, password }));
}

export const verifyEmail = (api: Api, token: string) => request<{ user: SessionUser }>(api, 'POST', '/auth/verify-email', { token });
export const resendVerification = (api: Api) => request<{ sent: boolean }>(api, 'POST', '/auth/verify-email/resend');

export async function signOut(api: Api, everywhere = false): Promise<void> {
  await request(api, 'POST', everywhere ? '/auth/signout-all' : '/auth/signout');
  api.setCsrfToken(null);
}

/** Signs in with a passkey: the server's challenge, the browser's ceremony, the server's verdict. */
export async function signInWithPasskey(api: Api): Promise<SessionInfo> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { challenge_id, options } = await request<{ challenge_id: string; options: any }>(api, 'POST', '/auth/passkeys/options', {});
  const response = await startAuthentication({ optionsJSON: options });
  return adopt(api, await request(api, 'POST', '/auth/passkeys/signin', { challenge_id, response }));
}

export async function addPasskey(api: Api, name: string): Promise<Passkey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const { challenge_id, options } = await request<{ challenge_id: string; options: any }>(api, 'POST', '/account/passkeys/options', {});
  const response = await startRegistration({ optionsJSON: options });
  return request<Passkey>(api, 'POST', '/account/passkeys', { challenge_id, response, ...(name ? { name } : {}) });
}

export const listPasskeys = (api: Api) => request<{ passkeys: Passkey[] }>(api, 'GET', '/account/passkeys').then((r) => r.passkeys);
export const deletePasskey = (api: Api, id: string) => request<void>(api, 'DELETE', `/account/passkeys/${encodeURIComponent(id)}`);

export const readAccount = (api: Api) => request<AccountInfo>(api, 'GET', '/account');
export const updateProfile = (api: Api, patch: { first_name?: string | null; last_name?: string | null }) => request<AccountInfo>(api, 'PATCH', '/account', patch);

export async function changePassword(api: Api, current_password: string, new_password: string): Promise<void> {
  const r = await request<{ csrf_token: string }>(api, 'POST', '/account/password', { current_password, new_password });
  api.setCsrfToken(r.csrf_token);
}

export const listSessions = (api: Api) => request<{ sessions: ActiveSession[] }>(api, 'GET', '/account/sessions').then((r) => r.sessions);
export const endSession = (api: Api, id: string) => request<void>(api, 'DELETE', `/account/sessions/${encodeURIComponent(id)}`);

export const listApiKeys = (api: Api) => request<{ api_keys: ApiKeyItem[] }>(api, 'GET', '/account/api-keys').then((r) => r.api_keys);
export const createApiKey = (api: Api, input: { name?: string; scope: 'forms' | 'voice'; monthly_limit?: number | null }) =>
  request<ApiKeyItem & { api_key: string }>(api, 'POST', '/account/api-keys', input);
export const revokeApiKey = (api: Api, keyId: string) => request<void>(api, 'DELETE', `/account/api-keys/${encodeURIComponent(keyId)}`);

/** Joins the team of an invitation sent to the signed-in person's address. */
export const acceptInvitation = (api: Api, token: string) => request<{ role: string; team: { id: string; name: string } }>(api, 'POST', `/invitations/${encodeURIComponent(token)}/accept`);
