import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';

/*
 * The tables, as TypeORM entities. Property names are the column names, so a row read by hand-written
 * SQL and an entity have one shape (the `*Row` types). Timestamps are ISO-8601 strings: they sort as text
 * and read back exactly on SQLite and PostgreSQL. JSON is text. Booleans read back as 0/1 on SQLite.
 */

const id: EntitySchemaColumnOptions = { type: 'varchar', primary: true };
const str: EntitySchemaColumnOptions = { type: 'varchar' };
const optStr: EntitySchemaColumnOptions = { type: 'varchar', nullable: true };
const text: EntitySchemaColumnOptions = { type: 'text' };
const optText: EntitySchemaColumnOptions = { type: 'text', nullable: true };
const bool: EntitySchemaColumnOptions = { type: 'boolean' };
const int: EntitySchemaColumnOptions = { type: 'integer' };
const optInt: EntitySchemaColumnOptions = { type: 'integer', nullable: true };

type Bool = boolean | number;

export interface UserRow {
  id: string;
  email: string;
  /** `email` lower-cased: the unique key that makes emails case-insensitive on both databases. */
  email_lower: string;
  first_name: string | null;
  last_name: string | null;
  plan: string;
  email_verified: Bool;
  created_at: string;
  updated_at: string;
}

export const UserEntity = new EntitySchema<UserRow>({
  name: 'FormloomUser',
  tableName: 'users',
  columns: {
    id,
    email: str,
    email_lower: str,
    first_name: optStr,
    last_name: optStr,
    plan: str,
    email_verified: bool,
    created_at: str,
    updated_at: str,
  },
  indices: [{ name: 'UQ_users_email_lower', columns: ['email_lower'], unique: true }],
});

export interface ApiKeyRow {
  id: string;
  user_id: string;
  secret_hash: string;
  scope: string;
  monthly_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
}

export const ApiKeyEntity = new EntitySchema<ApiKeyRow>({
  name: 'FormloomApiKey',
  tableName: 'api_keys',
  columns: {
    id,
    user_id: str,
    secret_hash: str,
    scope: str,
    monthly_limit: optInt,
    created_at: str,
    revoked_at: optStr,
    expires_at: optStr,
  },
  indices: [{ name: 'IDX_api_keys_user_id', columns: ['user_id'] }],
});

export interface FormRow {
  id: string;
  owner_id: string;
  team_id: string | null;
  slug: string;
  title: string;
  /** `title` lower-cased in JS, so the case-insensitive search folds non-ASCII letters on SQLite too. */
  title_search: string;
  description: string | null;
  published: Bool;
  has_unpublished_changes: Bool;
  published_version_id: string | null;
  response_count: number;
  theme_color: string | null;
  background_color: string | null;
  options: string;
  created_at: string;
  updated_at: string;
}

export const FormEntity = new EntitySchema<FormRow>({
  name: 'FormloomForm',
  tableName: 'forms',
  columns: {
    id,
    owner_id: str,
    team_id: optStr,
    slug: str,
    title: text,
    title_search: text,
    description: optText,
    published: bool,
    has_unpublished_changes: bool,
    published_version_id: optStr,
    response_count: int,
    theme_color: optStr,
    background_color: optStr,
    options: text,
    created_at: str,
    updated_at: str,
  },
  indices: [
    { name: 'UQ_forms_slug', columns: ['slug'], unique: true },
    { name: 'IDX_forms_owner_id', columns: ['owner_id'] },
    { name: 'IDX_forms_team_id', columns: ['team_id'] },
    { name: 'IDX_forms_owner_list', columns: ['owner_id', 'team_id', 'updated_at', 'id'] },
    { name: 'IDX_forms_team_list', columns: ['team_id', 'updated_at', 'id'] },
  ],
});

export interface QuestionRow {
  form_id: string;
  id: string;
  type: string;
  title: string;
  description: string | null;
  required: Bool;
  sort_order: number;
  properties: string;
  logic_jumps: string;
  validations: string;
}

/** Question ids are scoped to their form (primary key form_id + id), so a duplicated form may keep them. */
export const QuestionEntity = new EntitySchema<QuestionRow & { form?: FormRow }>({
  name: 'FormloomQuestion',
  tableName: 'questions',
  columns: {
    form_id: { type: 'varchar', primary: true },
    id,
    type: str,
    title: text,
    description: optText,
    required: bool,
    sort_order: int,
    properties: text,
    logic_jumps: text,
    validations: text,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_questions_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'IDX_questions_form_order', columns: ['form_id', 'sort_order'] }],
});

export interface VersionRow {
  id: string;
  form_id: string;
  version: number;
  published_by: string;
  published_by_name: string | null;
  created_at: string;
  changelog: string;
  snapshot: string;
}

export const VersionEntity = new EntitySchema<VersionRow & { form?: FormRow }>({
  name: 'FormloomVersion',
  tableName: 'form_versions',
  columns: {
    id,
    form_id: str,
    version: int,
    published_by: str,
    published_by_name: optStr,
    created_at: str,
    changelog: text,
    snapshot: text,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_form_versions_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'UQ_form_versions_form_version', columns: ['form_id', 'version'], unique: true }],
});

export interface TeamRow {
  id: string;
  name: string;
  slug: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

export const TeamEntity = new EntitySchema<TeamRow>({
  name: 'FormloomTeam',
  tableName: 'teams',
  columns: { id, name: str, slug: str, owner_id: str, created_at: str, updated_at: str },
  indices: [
    // Unique since the third migration (IDX_teams_slug before): a taken slug is a CONFLICT.
    { name: 'UQ_teams_slug', columns: ['slug'], unique: true },
    { name: 'IDX_teams_owner_id', columns: ['owner_id'] },
  ],
});

export interface TeamMemberRow {
  id: string;
  team_id: string;
  user_id: string;
  role: string;
  joined_at: string;
}

export const TeamMemberEntity = new EntitySchema<TeamMemberRow & { team?: TeamRow }>({
  name: 'FormloomTeamMember',
  tableName: 'team_members',
  columns: { id, team_id: str, user_id: str, role: str, joined_at: str },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_members_team_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    { name: 'UQ_team_members_team_user', columns: ['team_id', 'user_id'], unique: true },
    { name: 'IDX_team_members_user_id', columns: ['user_id'] },
  ],
});

export interface CreditBalanceRow {
  user_id: string;
  balance: number;
}

export const CreditBalanceEntity = new EntitySchema<CreditBalanceRow>({
  name: 'FormloomCreditBalance',
  tableName: 'credit_balances',
  columns: { user_id: id, balance: int },
});

export interface IdempotencyRow {
  key: string;
  owner: string;
  status: string;
  result: string | null;
  created_at: string;
  expires_at: string;
}

export const IdempotencyEntity = new EntitySchema<IdempotencyRow>({
  name: 'FormloomIdempotencyKey',
  tableName: 'idempotency_keys',
  columns: { key: id, owner: str, status: str, result: optText, created_at: str, expires_at: str },
});

export interface OutboxRow {
  id: string;
  kind: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export const OutboxEntity = new EntitySchema<OutboxRow>({
  name: 'FormloomOutboxItem',
  tableName: 'outbox',
  columns: {
    id,
    kind: str,
    payload: text,
    status: str,
    attempts: int,
    next_attempt_at: str,
    locked_by: optStr,
    locked_until: optStr,
    last_error: optText,
    created_at: str,
    updated_at: str,
  },
  indices: [
    { name: 'IDX_outbox_status_next_attempt', columns: ['status', 'next_attempt_at'] },
    // The housekeeping purge of settled items by age.
    { name: 'IDX_outbox_status_updated', columns: ['status', 'updated_at'] },
  ],
});

export interface UploadRow {
  id: string;
  form_id: string;
  question_id: string;
  key: string;
  size: number;
  response_id: string | null;
  created_at: string;
}

export const UploadEntity = new EntitySchema<UploadRow & { form?: FormRow }>({
  name: 'FormloomUpload',
  tableName: 'uploads',
  columns: { id, form_id: str, question_id: str, key: str, size: int, response_id: optStr, created_at: str },
  indices: [
    { name: 'UQ_uploads_key', columns: ['key'], unique: true },
    { name: 'IDX_uploads_form', columns: ['form_id'] },
    { name: 'IDX_uploads_response_created', columns: ['response_id', 'created_at'] },
  ],
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_uploads_form_id' },
      onDelete: 'CASCADE',
    },
  },
});

export interface ResponseRow {
  id: string;
  form_id: string;
  visitor_id: string | null;
  version_id: string | null;
  version: number | null;
  answers: string;
  metadata: string;
  quiz_results: string | null;
  started_at: string | null;
  submitted_at: string;
  completed_at: string | null;
  completion_seconds: number | null;
  resume_token_hash: string | null;
  /** Unique per form; NULLs never collide (on SQLite nor PostgreSQL), so only limited forms set it. */
  unique_visitor: string | null;
}

export const ResponseEntity = new EntitySchema<ResponseRow & { form?: FormRow }>({
  name: 'FormloomResponse',
  tableName: 'responses',
  columns: {
    id,
    form_id: str,
    visitor_id: optStr,
    version_id: optStr,
    version: optInt,
    answers: text,
    metadata: text,
    quiz_results: optText,
    started_at: optStr,
    submitted_at: str,
    completed_at: optStr,
    completion_seconds: optInt,
    resume_token_hash: optStr,
    unique_visitor: optStr,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_responses_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    // (form_id, submitted_at, id): listing newest first, the export's keyset scan, the cascade from forms.
    // The two trailing columns make it cover analytics and the listing's count: those read no table row.
    {
      name: 'IDX_responses_form_submitted',
      columns: ['form_id', 'submitted_at', 'id', 'completed_at', 'completion_seconds'],
    },
    { name: 'UQ_responses_form_unique_visitor', columns: ['form_id', 'unique_visitor'], unique: true },
  ],
});

export interface GlobalWebhookRow {
  user_id: string;
  position: number;
  url: string;
  enabled: Bool;
}

export const GlobalWebhookEntity = new EntitySchema<GlobalWebhookRow>({
  name: 'FormloomGlobalWebhook',
  tableName: 'global_webhooks',
  columns: { user_id: { type: 'varchar', primary: true }, position: { type: 'integer', primary: true }, url: text, enabled: bool },
});

export interface WebhookSecretRow {
  user_id: string;
  secret: string;
}

export const WebhookSecretEntity = new EntitySchema<WebhookSecretRow>({
  name: 'FormloomWebhookSecret',
  tableName: 'webhook_secrets',
  columns: { user_id: id, secret: text },
});

export interface DeliveryRow {
  id: string;
  form_id: string;
  response_id: string | null;
  user_id: string;
  url: string;
  event: string;
  body: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export const DeliveryEntity = new EntitySchema<DeliveryRow & { form?: FormRow }>({
  name: 'FormloomWebhookDelivery',
  tableName: 'webhook_deliveries',
  columns: {
    id,
    form_id: str,
    response_id: optStr,
    user_id: str,
    url: text,
    event: str,
    body: text,
    status: str,
    attempts: int,
    last_status_code: optInt,
    last_duration_ms: optInt,
    last_error: optText,
    next_attempt_at: optStr,
    created_at: str,
    updated_at: str,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_webhook_deliveries_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'IDX_webhook_deliveries_form_created', columns: ['form_id', 'created_at'] }],
});

export interface DeliveryAttemptRow {
  id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: string;
}

export const DeliveryAttemptEntity = new EntitySchema<DeliveryAttemptRow & { delivery?: DeliveryRow }>({
  name: 'FormloomWebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  columns: {
    id,
    delivery_id: str,
    attempt: int,
    status_code: optInt,
    duration_ms: int,
    error: optText,
    created_at: str,
  },
  relations: {
    delivery: {
      type: 'many-to-one',
      target: 'FormloomWebhookDelivery',
      joinColumn: { name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_delivery_attempts_delivery_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'IDX_webhook_delivery_attempts_delivery_id', columns: ['delivery_id'] }],
});

export interface TeamSsoRow {
  team_id: string;
  sso_domain_verify_token: string;
}

/**
 * A team's SSO settings beside the team (a row only when there is a token), so adding them rebuilt no
 * `teams` table on SQLite. Goes with the team (ON DELETE CASCADE).
 */
export const TeamSsoEntity = new EntitySchema<TeamSsoRow & { team?: TeamRow }>({
  name: 'FormloomTeamSso',
  tableName: 'team_sso',
  columns: { team_id: id, sso_domain_verify_token: str },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_sso_team_id' },
      onDelete: 'CASCADE',
    },
  },
});

export interface InvitationRow {
  id: string;
  team_id: string;
  /** Lower-case. */
  email: string;
  role: string;
  invited_by: string;
  token_hash: string;
  token_sealed: string;
  status: string;
  language: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** Invitations go with their team (ON DELETE CASCADE). */
export const InvitationEntity = new EntitySchema<InvitationRow & { team?: TeamRow }>({
  name: 'FormloomTeamInvitation',
  tableName: 'team_invitations',
  columns: {
    id,
    team_id: str,
    email: str,
    role: str,
    invited_by: str,
    token_hash: str,
    token_sealed: text,
    status: str,
    language: str,
    expires_at: str,
    created_at: str,
    updated_at: str,
  },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_invitations_team_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    { name: 'UQ_team_invitations_token_hash', columns: ['token_hash'], unique: true },
    // Pending (and unexpired) invitations of a team: listing, counting seats; also the cascade from teams.
    { name: 'IDX_team_invitations_team_status_expires', columns: ['team_id', 'status', 'expires_at'] },
    { name: 'IDX_team_invitations_team_email', columns: ['team_id', 'email'] },
  ],
});

export interface BrandingRow {
  team_id: string;
  logo_url: string | null;
  primary_color: string | null;
  background_color: string | null;
  text_color: string | null;
  font_family: string | null;
  footer_text: string | null;
}

/** One row per team that set a branding; goes with the team (ON DELETE CASCADE). */
export const BrandingEntity = new EntitySchema<BrandingRow & { team?: TeamRow }>({
  name: 'FormloomTeamBranding',
  tableName: 'team_branding',
  columns: {
    team_id: id,
    logo_url: optText,
    primary_color: optStr,
    background_color: optStr,
    text_color: optStr,
    font_family: optStr,
    footer_text: optText,
  },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_branding_team_id' },
      onDelete: 'CASCADE',
    },
  },
});

export interface AuditLogRow {
  id: string;
  team_id: string;
  action: string;
  user_id: string | null;
  user_email: string | null;
  details: string;
  ip_address: string | null;
  timestamp: string;
}

/**
 * Audit events. `team_id` is deliberately no foreign key: the events of a deleted team stay (the last one
 * records the deletion) and never block it. `timestamp` is quoted in SQL (a PostgreSQL keyword).
 */
export const AuditLogEntity = new EntitySchema<AuditLogRow>({
  name: 'FormloomAuditLog',
  tableName: 'audit_logs',
  columns: {
    id,
    team_id: str,
    action: str,
    user_id: optStr,
    user_email: optStr,
    details: text,
    ip_address: optStr,
    timestamp: str,
  },
  indices: [
    // The listing, newest first, with its since/until window and the id tie-break.
    { name: 'IDX_audit_logs_team_timestamp', columns: ['team_id', 'timestamp', 'id'] },
    { name: 'IDX_audit_logs_team_action', columns: ['team_id', 'action'] },
  ],
});

export interface RateLimitRow {
  bucket_key: string;
  hits: number;
  resets_at: string;
}

/** One fixed-window counter per key (a limit's name and its subject: key id, IP, form); see docs/security.md. */
export const RateLimitEntity = new EntitySchema<RateLimitRow>({
  name: 'FormloomRateLimit',
  tableName: 'rate_limits',
  columns: { bucket_key: id, hits: int, resets_at: str },
  indices: [{ name: 'IDX_rate_limits_resets_at', columns: ['resets_at'] }],
});

/** Every entity of Formloom, for a host that builds its own DataSource (add them to `entities`). */
export const formloomEntities: readonly EntitySchema<any>[] = [
  UserEntity,
  ApiKeyEntity,
  FormEntity,
  QuestionEntity,
  VersionEntity,
  TeamEntity,
  TeamMemberEntity,
  CreditBalanceEntity,
  IdempotencyEntity,
  OutboxEntity,
  UploadEntity,
  ResponseEntity,
  GlobalWebhookEntity,
  WebhookSecretEntity,
  DeliveryEntity,
  DeliveryAttemptEntity,
  TeamSsoEntity,
  InvitationEntity,
  BrandingEntity,
  AuditLogEntity,
  RateLimitEntity,
];

/** The column names of an entity, in declaration order: the column list of our INSERT statements. */
export const columnsOf = (entity: EntitySchema<any>): string[] => Object.keys(entity.options.columns);
