/*
 * Records of people who sign in (docs/accounts.md): passwords, browser sessions, one-time tokens sent by mail and
 * passkeys. Every secret is stored as a hash, never in clear.
 */

/** How new accounts may be made over HTTP (`FORMLOOM_SIGNUP`). */
export type SignupMode = 'open' | 'invite' | 'closed';
export const SIGNUP_MODES: readonly SignupMode[] = ['open', 'invite', 'closed'];

/** A user's password: its scrypt hash (`scrypt$<salt hex>$<hash hex>`). */
export interface PasswordRecord {
  user_id: string;
  password_hash: string;
  updated_at: string;
}

/** A browser session. The cookie holds a random token; storage holds its HMAC-SHA256 under the instance's secret key. */
export interface SignInSession {
  id: string;
  user_id: string;
  /** hex HMAC-SHA256 of the cookie's token under the instance secret key. */
  token_hash: string;
  created_at: string;
  last_seen_at: string;
  /** When the session ends unless used again: the idle expiry, never after the absolute one. */
  expires_at: string;
  user_agent: string | null;
  ip_address: string | null;
}

/** What a one-time token is for. Passkey challenges are one-time tokens too, so any instance can finish them. */
export type OneTimeTokenPurpose = 'signin_link' | 'password_reset' | 'email_verification' | 'signup' | 'passkey_registration' | 'passkey_authentication';

/** A single-use secret sent by mail (a link) or handed to a browser (a passkey challenge id). */
export interface OneTimeToken {
  id: string;
  /** hex HMAC-SHA256 of the token under the instance secret key. */
  token_hash: string;
  purpose: OneTimeTokenPurpose;
  user_id: string | null;
  /** What the token carries besides its user: the WebAuthn challenge, the address being verified. */
  data: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A WebAuthn credential registered by a user. */
export interface PasskeyRecord {
  id: string;
  user_id: string;
  /** The credential id as base64url, unique on the instance. */
  credential_id: string;
  /** The COSE public key as base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: string;
  last_used_at: string | null;
}
