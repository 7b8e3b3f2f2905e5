import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { checkPasswordHash, decoyPasswordHash } from '../password-hash';

/*
 * The secrets of signing in (docs/accounts.md, docs/security.md): scrypt password hashes, and tokens stored
 * as HMAC-SHA256 under the instance's secret key, so a database copy reveals no usable token and a token
 * made by an instance with another key is refused.
 */

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** The stored form of a password (password-hash.ts): scrypt at the instance's `passwordHashCost`. */
export { hashPasswordAt as hashPassword } from '../password-hash';

/**
 * Constant-time check of `password` against a stored hash; against a decoy of the instance's `cost` when
 * `stored` is `null` (always false then), so that an unknown account's answer takes as long as a known one's.
 */
export async function verifyPassword(password: string, stored: string | null, cost?: number): Promise<boolean> {
  const ok = await checkPasswordHash(password, stored ?? decoyPasswordHash(cost));
  return ok && stored !== null;
}

/** A new token: 32 random bytes as base64url (43 characters). */
export const newToken = () => randomBytes(32).toString('base64url');

/** Tokens are 43 base64url characters; anything else is not one of ours and is refused before any lookup. */
export const isToken = (s: unknown): s is string => typeof s === 'string' && /^[A-Za-z0-9_-]{43}$/.test(s);

/** The stored form of a token: hex HMAC-SHA256 under the instance secret key, with a purpose label. */
export const tokenHash = (secretKey: string, purpose: string, token: string) =>
  createHmac('sha256', secretKey).update(`${purpose}\0${token}`).digest('hex');

/** The CSRF token of a session: derived from its cookie token, so it needs no storage and dies with the session. */
export const csrfTokenOf = (secretKey: string, sessionToken: string) =>
  createHmac('sha256', secretKey).update(`csrf\0${sessionToken}`).digest('base64url');

/** Constant-time string equality. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
