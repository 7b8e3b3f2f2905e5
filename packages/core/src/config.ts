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
  /** Voice scripts: requests with `auto_convert` each account may make per UTC day (default 50). */
  voiceAutoConvertPerDay: number;
  /** Voice scripts: requests where `auto_cast` picks voices, per account and UTC day (default 50). */
  voiceAutoCastPerDay: number;
}
