import { createHmac } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { Answer, Question } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { FormloomConfig } from '../config';
import { sameSecret } from '../sessions/secrets';
import { TOKENS } from '../tokens';

/** How long a signed file link opens its file when nothing else is said: 7 days (`config.fileLinkTtlMs`). */
export const DEFAULT_FILE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An upload's answer URL: `.../public/uploads/<formId>/<32 hex>/<name>`, without query or fragment. */
const UPLOAD_URL = /^[^?#]*\/public\/uploads\/([A-Za-z0-9_]+)\/([0-9a-f]{32})\/([^/?#]+)$/;

/** Seconds since the epoch as the link carries them: digits only, at most 12 (past the year 33,000). */
const EXPIRES = /^[0-9]{1,12}$/;
/** An HMAC-SHA256 in base64url, unpadded. */
const SIG = /^[A-Za-z0-9_-]{43}$/;

/** What a presented link proves: the file opens (`ok`), or not (`invalid`: forged, altered or malformed; `expired`). */
export type FileLinkVerdict = 'ok' | 'invalid' | 'expired';

/** The blob key an upload's answer URL names, or null when the URL names no upload. */
export function uploadKeyOfUrl(url: string): string | null {
  const m = UPLOAD_URL.exec(url);
  if (!m) return null;
  try {
    return `uploads/${m[1]}/${m[2]}/${decodeURIComponent(m[3]!)}`;
  } catch {
    // A malformed escape names no stored file.
    return null;
  }
}

/**
 * Signed links to uploaded files (docs/security.md "Uploaded files"): `<url>?expires=<unix seconds>&sig=<HMAC>`
 * opens the file without a key until `expires`, for webhook receivers and mails. The HMAC-SHA256 covers the
 * file's blob key and the expiry, under a key derived from the instance's secret key (one purpose, so a
 * link's signature is no other token's); it is compared in constant time. Links outlive nothing: changing the
 * secret key ends them all.
 */
@injectable()
export class FileLinks {
  private readonly key: Buffer;

  constructor(
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', config.secretKey).update('formloom-file-links').digest();
  }

  private signature(blobKey: string, expires: string): string {
    return createHmac('sha256', this.key).update(`${blobKey}\n${expires}`).digest('base64url');
  }

  /**
   * The answer URL with a signature that opens it for `ttlMs` (default `config.fileLinkTtlMs`); a URL that
   * names no upload is returned as it is (nothing else is ever signed).
   */
  sign(url: string, ttlMs = this.config.fileLinkTtlMs): string {
    const blobKey = uploadKeyOfUrl(url);
    if (!blobKey) return url;
    const expires = String(Math.ceil((this.clock.now().getTime() + ttlMs) / 1000));
    return `${url}?expires=${expires}&sig=${this.signature(blobKey, expires)}`;
  }

  /** Whether `expires` and `sig` (as the query gave them) open the file of `blobKey` now. */
  verify(blobKey: string, expires: unknown, sig: unknown): FileLinkVerdict {
    if (typeof expires !== 'string' || typeof sig !== 'string' || !EXPIRES.test(expires) || !SIG.test(sig)) return 'invalid';
    // Constant time: a guess learns nothing from how long the comparison took.
    if (!sameSecret(sig, this.signature(blobKey, expires))) return 'invalid';
    // The signature first: only a genuine link learns that it expired.
    return Number(expires) * 1000 > this.clock.now().getTime() ? 'ok' : 'expired';
  }

  /**
   * The answers with each file_upload answer's `url` signed: what webhook receivers and mails get, so they
   * can fetch the files without a key. Only answers to file_upload questions are signed, so a URL typed
   * into a text answer never becomes a link that opens a file.
   */
  signAnswers(answers: readonly Answer[], questions: readonly Pick<Question, 'id' | 'type'>[], ttlMs?: number): Answer[] {
    const files = new Set(questions.filter((q) => q.type === 'file_upload').map((q) => q.id));
    return answers.map((a) => {
      const v = a.value as { url?: unknown; name?: unknown } | null;
      if (!files.has(a.question_id) || !v || typeof v !== 'object' || typeof v.url !== 'string') return a;
      return { ...a, value: { ...v, url: this.sign(v.url, ttlMs) } };
    });
  }
}
