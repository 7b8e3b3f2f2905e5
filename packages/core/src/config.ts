import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Instance settings that are not adapters. */
export interface FormloomConfig {
  /** Base of shareable links, e.g. `http://localhost:3000`. */
  publicUrl: string;
  /**
   * Key that encrypts stored secrets (webhook signing secrets). Any string; keep it stable across
   * restarts and identical on every instance sharing a database.
   */
  secretKey: string;
  /** Webhook delivery time-out (ms). */
  webhookTimeoutMs: number;
  /** Largest upload when the question sets no `max_size_mb` (bytes). */
  uploadMaxBytes: number;
  /** Largest upload a question's `max_size_mb` may allow (bytes). */
  uploadMaxBytesCeiling: number;
  /** Content types accepted when a question sets no `allowed_types` (`type/*` patterns allowed). */
  uploadTypes: string[];
  /** Total size of one form's stored uploads (bytes); an upload past it is refused (413). */
  uploadQuotaBytes: number;
  /** How long an upload may stay unattached to a response before the worker's sweep deletes it (ms). */
  uploadUnattachedMs: number;
  /** How long delivered and failed outbox items are kept before the worker purges them (ms). */
  outboxRetentionMs: number;
}

/** AES-256-GCM over secrets at rest: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secretKey: string) {
    this.key = createHash('sha256').update(`formloom-secret-box:${secretKey}`).digest();
  }
  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv, c.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }
  open(sealed: string): string {
    const [v, iv, tag, data] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed secret');
    const d = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(data, 'base64url')), d.final()]).toString('utf8');
  }
}
