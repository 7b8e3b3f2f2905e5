import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/*
 * The secrets of signing in (docs/accounts.md, docs/security.md): scrypt password hashes, and tokens stored
 * as HMAC-SHA256 under the instance's secret key, so a database copy reveals no usable token and a token
 * made by an instance with another key is refused.
 */

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** `scrypt$<salt hex>$<hash hex>` (Node's scrypt defaults: N=16384, r=8, p=1), the stored form of a password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${(await scrypt(password, salt, 32)).toString('hex')}`;
}

/** A hash of no password: checked when the account is unknown, so that both cases take the same time. */
const DECOY = `scrypt$${'00'.repeat(16)}$${'00'.repeat(32)}`;

/** Constant-time check of `password` against a stored hash; against a decoy when `stored` is `null` (always false then). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, salt, hash] = (stored ?? DECOY).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'hex');
  const got = await scrypt(password, Buffer.from(salt, 'hex'), want.length);
  return timingSafeEqual(got, want) && stored !== null;
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
