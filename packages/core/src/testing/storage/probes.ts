/**
 * A stored row under the record's field names (plus the owner's id where the record has none, such as a
 * question's `form_id`), with values as the database hands them back: booleans may read as 0/1, JSON as
 * text, numbers as strings. The suite tolerates each of those.
 */
export type StoredRow = Record<string, any>;

/** The stored rows whose fields equal every value in `where` (at least one field), `[]` when none. */
export type Probe<Field extends string> = (where: Partial<Record<Field, string>>) => Promise<StoredRow[]>;

/**
 * Reads of what an adapter really stored, made without its repositories (raw SQL, the database's own
 * client, ...), in the manner of Auth.js's adapter tests and their `db` object: the storage suite writes
 * through the port and checks the result through these, so an adapter cannot pass by reading back its own
 * mistakes. Each adapter supplies its own (`@formloom/storage-typeorm` reads its tables with SQL).
 *
 * One probe per stored aggregate; the filter fields each takes are the ones the suite needs.
 */
export interface StorageProbes {
  /** Users: `id`, `email`, `plan`, `first_name`, `email_verified`, ... */
  users: Probe<'id'>;
  /** API keys: `id`, `revoked_at`, ... */
  apiKeys: Probe<'id'>;
  /** One row per user that ever had credits: `user_id`, `balance`. */
  creditBalances: Probe<'user_id'>;
  /** Idempotency records: `key`, `owner`, `status`, ... */
  idempotencyKeys: Probe<'key'>;
  /** Forms: `id`, `slug`, `team_id`, `title`, `published`, `options`, ... */
  forms: Probe<'id' | 'slug' | 'team_id'>;
  /** Questions with their `form_id`: `id`, `title`, ... */
  questions: Probe<'form_id'>;
  /** Published versions: `id`, `form_id`, `version`, ... */
  versions: Probe<'form_id'>;
  /** Teams: `id`, `slug`, `name`, `updated_at`, ... */
  teams: Probe<'id' | 'slug'>;
  /** Memberships: `id`, `team_id`, `user_id`, `role`, ... */
  teamMembers: Probe<'id' | 'team_id'>;
  /** One row per team with an SSO token: `team_id`, `sso_domain_verify_token`. */
  teamSso: Probe<'team_id'>;
  /** Invitations: `id`, `team_id`, `email`, `token_hash`, `status`, ... */
  invitations: Probe<'id' | 'team_id' | 'token_hash'>;
  /** One row per team with a branding: `team_id`, `logo_url`, `primary_color`, ... */
  branding: Probe<'team_id'>;
  /** Audit events: `id`, `team_id`, `action`, `details`, ... */
  auditLogs: Probe<'id' | 'team_id'>;
  /** Outbox items: `id`, `kind`, `status`, `locked_by`, `last_error`, ... */
  outbox: Probe<'id' | 'kind'>;
  /** Responses: `id`, `form_id`, `unique_visitor`, `answers`, `metadata`, ... */
  responses: Probe<'id' | 'form_id' | 'unique_visitor'>;
  /** An account's global webhooks: `user_id`, `url`, `enabled`. */
  globalWebhooks: Probe<'user_id'>;
  /** One row per account with a signing secret: `user_id`, `secret`. */
  webhookSecrets: Probe<'user_id'>;
  /** Form webhook deliveries: `id`, `form_id`, `status`, `last_status_code`, `attempts`, ... */
  deliveries: Probe<'id' | 'form_id'>;
  /** Delivery attempts: `id`, `delivery_id`, `status_code`, `error`, ... */
  deliveryAttempts: Probe<'id' | 'delivery_id'>;
  /** Uploads: `id`, `form_id`, `key`, `size`, `response_id`, ... */
  uploads: Probe<'id' | 'form_id'>;
  /** One row per rate-limit key: `bucket_key`, `hits`, `resets_at`. */
  rateLimits: Probe<'bucket_key'>;
}
