import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../crypto-box';
import { FormloomError } from '../errors';

/** How long an `X-Access-Token` from verify-password lasts (docs/signing.md). */
export const ACCESS_TOKEN_MS = 60 * 60 * 1000;
/** Failed password tries per short code within `ATTEMPT_WINDOW_MS`. */
export const MAX_PASSWORD_FAILURES = 10;
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const MAX_CODE_SENDS = 5;

/** A sealed (encrypted, authenticated) token naming the short code and its expiry: nothing to store. */
export const issueAccessToken = (box: SecretBox, code: string, now: Date) =>
  box.seal(JSON.stringify({ c: code, e: now.getTime() + ACCESS_TOKEN_MS }));

export function checkAccessToken(box: SecretBox, code: string, token: string | undefined, now: Date) {
  let ok = false;
  try {
    const t = JSON.parse(box.open(token ?? '')) as { c?: string; e?: number };
    ok = t.c === code && typeof t.e === 'number' && t.e > now.getTime();
  } catch {
    ok = false;
  }
  if (!ok) throw new FormloomError('UNAUTHORIZED', 'This signing link is password-protected: verify the password and send X-Access-Token');
}

export const hashCode = (code: string, shortCode: string) => createHash('sha256').update(`${shortCode}:${code}`).digest('hex');

export function codeMatches(code: string, shortCode: string, stored: string | null): boolean {
  if (!stored) return false;
  const a = Buffer.from(hashCode(code, shortCode), 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
