/** Instance settings that are not adapters. */
export interface FormloomConfig {
  /** Base of shareable links, e.g. `http://localhost:3000`. */
  publicUrl: string;
  /**
   * Path the API router is mounted under on `publicUrl` (default `/api/v1`), for links in mails that are
   * built without a request (the signed copies). Set it when the host mounts the router elsewhere.
   */
  apiPath: string;
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
  /**
   * How long a signed link to an uploaded file opens it without a key (ms; default 7 days): the links
   * webhook payloads and mails carry (docs/security.md "Uploaded files").
   */
  fileLinkTtlMs: number;
  /** How long delivered and failed outbox items are kept before the worker purges them (ms). */
  outboxRetentionMs: number;
  /** The voice API's budgets and limits (docs/voice.md); a partial object is merged over the defaults. */
  voice: VoiceConfig;
  /**
   * What voice credits cost when bought with "Buy credits" (docs/payments.md, "Voice credits"): `per_1000` in the
   * smallest unit of `currency` for 1,000 credits. Default: 100 (1.00) USD per 1,000 credits.
   */
  creditPrice?: { currency: string; per_1000: number };
  /** Minutes a booking slot stays held while the respondent finishes the form (docs/booking.md; default 10). */
  bookingHoldMinutes?: number;
  /**
   * log2 of scrypt's N for the password hashes this instance makes (default 14: N = 16,384; 1 to 14). Leave it:
   * tests lower it where the hash is not what they check, as each hash at 14 costs some 30 ms of CPU. A hash
   * names a cost other than 14, so every instance checks every hash whatever its own setting (password-hash.ts).
   */
  passwordHashCost?: number;
}

export interface VoiceConfig {
  /** How long a synchronous generation may take before the answer is 202 with `Location` (ms; default 25,000). */
  syncBudgetMs: number;
  /** Generation requests (speak, script, stream) per API key and minute (default 60; 0 turns the limit off). */
  generationsPerMinute: number;
  /** Estimates per API key and minute, counted apart from generations (default 300; 0 turns the limit off). */
  estimatesPerMinute: number;
  /** Scripts: requests with `auto_convert` each account may make per UTC day (default 50). */
  autoConvertPerDay: number;
  /** Scripts: requests where `auto_cast` picks voices, per account and UTC day (default 50). */
  autoCastPerDay: number;
}

export const DEFAULT_VOICE_CONFIG: Readonly<VoiceConfig> = {
  syncBudgetMs: 25_000,
  generationsPerMinute: 60,
  estimatesPerMinute: 300,
  autoConvertPerDay: 50,
  autoCastPerDay: 50,
};

/** `publicUrl` + `apiPath`, without a trailing slash: the absolute base of the API's links built outside a request. */
export function apiBase(config: Pick<FormloomConfig, 'publicUrl' | 'apiPath'>): string {
  const path = config.apiPath.replace(/\/+$/, '');
  return `${config.publicUrl.replace(/\/+$/, '')}${path && !path.startsWith('/') ? '/' : ''}${path}`;
}
