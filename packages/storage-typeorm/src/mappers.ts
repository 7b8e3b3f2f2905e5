import type {
  ApiKey,
  AuditEvent,
  DeliveryAttempt,
  FormRecord,
  GlobalWebhook,
  IdempotencyRecord,
  Invitation,
  OutboxItem,
  Question,
  ResponseRecord,
  Team,
  TeamBranding,
  TeamMember,
  TeamMemberProfile,
  User,
  Version,
  WebhookDelivery,
} from '@formloom/core';
import type {
  ApiKeyRow,
  AuditLogRow,
  BrandingRow,
  DeliveryAttemptRow,
  DeliveryRow,
  FormRow,
  GlobalWebhookRow,
  IdempotencyRow,
  InvitationRow,
  OutboxRow,
  QuestionRow,
  ResponseRow,
  TeamMemberRow,
  TeamRow,
  UserRow,
  VersionRow,
} from './entities';

/*
 * Record <-> row. Rows are what either driver hands back: SQLite booleans are 0/1, JSON columns are text,
 * and PostgreSQL counts may be strings. Records are the domain types of @formloom/core.
 */

export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't' || v === 'true';
const fromJson = <T>(v: unknown, fallback: T): T =>
  typeof v === 'string' ? (JSON.parse(v) as T) : v == null ? fallback : (v as T);
const toJson = (v: unknown, fallback: unknown): string => JSON.stringify(v ?? fallback);
const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export const userFromRow = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
  plan: r.plan as User['plan'],
  email_verified: toBool(r.email_verified),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const lowerEmail = (email: string) => email.trim().toLowerCase();

export const userToRow = (u: Partial<User>): Partial<UserRow> =>
  pick({
    id: u.id,
    email: u.email,
    email_lower: u.email === undefined ? undefined : lowerEmail(u.email),
    first_name: u.first_name,
    last_name: u.last_name,
    plan: u.plan,
    email_verified: u.email_verified,
    created_at: u.created_at,
    updated_at: u.updated_at,
  });

export const apiKeyFromRow = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  user_id: r.user_id,
  secret_hash: r.secret_hash,
  scope: r.scope as ApiKey['scope'],
  monthly_limit: r.monthly_limit == null ? null : Number(r.monthly_limit),
  created_at: r.created_at,
  revoked_at: r.revoked_at,
  expires_at: r.expires_at,
});

export const apiKeyToRow = (k: ApiKey): ApiKeyRow => ({
  id: k.id,
  user_id: k.user_id,
  secret_hash: k.secret_hash,
  scope: k.scope,
  monthly_limit: orNull(k.monthly_limit),
  created_at: k.created_at,
  revoked_at: orNull(k.revoked_at),
  expires_at: orNull(k.expires_at),
});

export const formFromRow = (r: FormRow): FormRecord => ({
  id: r.id,
  owner_id: r.owner_id,
  team_id: r.team_id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  published: toBool(r.published),
  has_unpublished_changes: toBool(r.has_unpublished_changes),
  published_version_id: r.published_version_id,
  response_count: Number(r.response_count),
  theme_color: r.theme_color,
  background_color: r.background_color,
  options: fromJson(r.options, {}),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Only the fields present in `f` (a whole record or a patch); unknown keys such as `questions` are dropped. */
export const formToRow = (f: Partial<FormRecord>): Partial<FormRow> =>
  pick({
    id: f.id,
    owner_id: f.owner_id,
    team_id: f.team_id,
    slug: f.slug,
    title: f.title,
    title_search: f.title === undefined ? undefined : f.title.toLowerCase(),
    description: f.description,
    published: f.published,
    has_unpublished_changes: f.has_unpublished_changes,
    published_version_id: f.published_version_id,
    response_count: f.response_count,
    theme_color: f.theme_color,
    background_color: f.background_color,
    options: f.options === undefined ? undefined : toJson(f.options, {}),
    created_at: f.created_at,
    updated_at: f.updated_at,
  });

export const questionFromRow = (r: QuestionRow): Question => ({
  id: r.id,
  type: r.type,
  title: r.title,
  description: r.description,
  required: toBool(r.required),
  order: Number(r.sort_order),
  properties: fromJson(r.properties, {}),
  logic_jumps: fromJson(r.logic_jumps, []),
  validations: fromJson(r.validations, {}),
});

export const questionToRow = (formId: string, q: Question): QuestionRow => ({
  form_id: formId,
  id: q.id,
  type: q.type,
  title: q.title,
  description: orNull(q.description),
  required: !!q.required,
  sort_order: q.order,
  properties: toJson(q.properties, {}),
  logic_jumps: toJson(q.logic_jumps, []),
  validations: toJson(q.validations, {}),
});

export const versionFromRow = (r: VersionRow): Version => ({
  id: r.id,
  form_id: r.form_id,
  version: Number(r.version),
  published_by: r.published_by,
  published_by_name: r.published_by_name,
  created_at: r.created_at,
  changelog: fromJson(r.changelog, []),
  snapshot: fromJson(r.snapshot, {}),
});

export const versionToRow = (v: Version): VersionRow => ({
  id: v.id,
  form_id: v.form_id,
  version: v.version,
  published_by: v.published_by,
  published_by_name: orNull(v.published_by_name),
  created_at: v.created_at,
  changelog: toJson(v.changelog, []),
  snapshot: toJson(v.snapshot, {}),
});

export const teamFromRow = (r: TeamRow): Team => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  owner_id: r.owner_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
});
export const teamToRow = (t: Team): TeamRow => teamFromRow(t);

/** The columns of a team patch: only the fields present, unknown keys dropped. */
export const teamPatchToRow = (p: Partial<Pick<Team, 'name' | 'slug' | 'updated_at'>>): Partial<TeamRow> =>
  pick({ name: p.name, slug: p.slug, updated_at: p.updated_at });

export const memberFromRow = (r: TeamMemberRow): TeamMember => ({
  id: r.id,
  team_id: r.team_id,
  user_id: r.user_id,
  role: r.role as TeamMember['role'],
  joined_at: r.joined_at,
});
export const memberToRow = (m: TeamMember): TeamMemberRow => memberFromRow(m);

/** A membership joined with its user's profile columns. */
export const memberProfileFromRow = (
  r: TeamMemberRow & { email: string; first_name: string | null; last_name: string | null },
): TeamMemberProfile => ({
  ...memberFromRow(r),
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
});

export const invitationFromRow = (r: InvitationRow): Invitation => ({
  id: r.id,
  team_id: r.team_id,
  email: r.email,
  role: r.role as Invitation['role'],
  invited_by: r.invited_by,
  token_hash: r.token_hash,
  token_sealed: r.token_sealed,
  status: r.status as Invitation['status'],
  language: r.language,
  expires_at: r.expires_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** The email is stored lower-case (the port's contract), as the look-ups by email compare it. */
export const invitationToRow = (i: Invitation): InvitationRow => ({
  ...invitationFromRow(i),
  email: lowerEmail(i.email),
});

export const brandingFromRow = (r: BrandingRow): TeamBranding => ({
  logo_url: r.logo_url,
  primary_color: r.primary_color,
  background_color: r.background_color,
  text_color: r.text_color,
  font_family: r.font_family,
  footer_text: r.footer_text,
});

export const brandingToRow = (teamId: string, b: TeamBranding): BrandingRow => ({
  team_id: teamId,
  logo_url: orNull(b.logo_url),
  primary_color: orNull(b.primary_color),
  background_color: orNull(b.background_color),
  text_color: orNull(b.text_color),
  font_family: orNull(b.font_family),
  footer_text: orNull(b.footer_text),
});

export const auditFromRow = (r: AuditLogRow): AuditEvent => ({
  id: r.id,
  team_id: r.team_id,
  action: r.action,
  user_id: r.user_id,
  user_email: r.user_email,
  details: fromJson(r.details, {}),
  ip_address: r.ip_address,
  timestamp: r.timestamp,
});

export const auditToRow = (e: AuditEvent): AuditLogRow => ({
  id: e.id,
  team_id: e.team_id,
  action: e.action,
  user_id: orNull(e.user_id),
  user_email: orNull(e.user_email),
  details: toJson(e.details, {}),
  ip_address: orNull(e.ip_address),
  timestamp: e.timestamp,
});

export const idempotencyFromRow = (r: IdempotencyRow): IdempotencyRecord => ({
  key: r.key,
  owner: r.owner,
  status: r.status as IdempotencyRecord['status'],
  result: r.result == null ? null : fromJson(r.result, {}),
  created_at: r.created_at,
  expires_at: r.expires_at,
});

export const outboxFromRow = (r: OutboxRow): OutboxItem => ({
  id: r.id,
  kind: r.kind,
  payload: fromJson(r.payload, {}),
  status: r.status as OutboxItem['status'],
  attempts: Number(r.attempts),
  next_attempt_at: r.next_attempt_at,
  locked_by: r.locked_by,
  locked_until: r.locked_until,
  last_error: r.last_error,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const outboxToRow = (o: OutboxItem): OutboxRow => ({
  id: o.id,
  kind: o.kind,
  payload: toJson(o.payload, {}),
  status: o.status,
  attempts: o.attempts ?? 0,
  next_attempt_at: o.next_attempt_at,
  locked_by: orNull(o.locked_by),
  locked_until: orNull(o.locked_until),
  last_error: orNull(o.last_error),
  created_at: o.created_at,
  updated_at: o.updated_at,
});

const optNumber = (v: unknown): number | null => (v == null ? null : Number(v));

export const responseFromRow = (r: ResponseRow): ResponseRecord => ({
  id: r.id,
  form_id: r.form_id,
  visitor_id: r.visitor_id,
  version_id: r.version_id,
  version: optNumber(r.version),
  answers: fromJson(r.answers, []),
  metadata: fromJson(r.metadata, { user_agent: null, referrer: null }),
  quiz_results: r.quiz_results == null ? null : fromJson(r.quiz_results, null),
  started_at: r.started_at,
  submitted_at: r.submitted_at,
  completed_at: r.completed_at,
  completion_seconds: optNumber(r.completion_seconds),
  resume_token_hash: r.resume_token_hash,
  unique_visitor: r.unique_visitor,
});

export const responseToRow = (r: ResponseRecord): ResponseRow => ({
  id: r.id,
  form_id: r.form_id,
  visitor_id: orNull(r.visitor_id),
  version_id: orNull(r.version_id),
  version: orNull(r.version),
  answers: toJson(r.answers, []),
  metadata: toJson(r.metadata, { user_agent: null, referrer: null }),
  quiz_results: r.quiz_results == null ? null : toJson(r.quiz_results, null),
  started_at: orNull(r.started_at),
  submitted_at: r.submitted_at,
  completed_at: orNull(r.completed_at),
  completion_seconds: orNull(r.completion_seconds),
  resume_token_hash: orNull(r.resume_token_hash),
  unique_visitor: orNull(r.unique_visitor),
});

/** The columns `updatePartial` writes. */
export const partialResponseToRow = (
  p: Pick<ResponseRecord, 'answers' | 'completed_at' | 'completion_seconds' | 'quiz_results' | 'unique_visitor' | 'submitted_at'>,
) => ({
  answers: toJson(p.answers, []),
  completed_at: orNull(p.completed_at),
  completion_seconds: orNull(p.completion_seconds),
  quiz_results: p.quiz_results == null ? null : toJson(p.quiz_results, null),
  unique_visitor: orNull(p.unique_visitor),
  submitted_at: p.submitted_at,
});

export const globalWebhookFromRow = (r: GlobalWebhookRow): GlobalWebhook => ({ url: r.url, enabled: toBool(r.enabled) });

export const deliveryFromRow = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  form_id: r.form_id,
  response_id: r.response_id,
  user_id: r.user_id,
  url: r.url,
  event: r.event,
  body: r.body,
  status: r.status as WebhookDelivery['status'],
  attempts: Number(r.attempts),
  last_status_code: optNumber(r.last_status_code),
  last_duration_ms: optNumber(r.last_duration_ms),
  last_error: r.last_error,
  next_attempt_at: r.next_attempt_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Whole record or patch: only the fields present (`undefined` = absent), unknown keys dropped. */
export const deliveryToRow = (d: Partial<WebhookDelivery>): Partial<DeliveryRow> =>
  pick({
    id: d.id,
    form_id: d.form_id,
    response_id: d.response_id,
    user_id: d.user_id,
    url: d.url,
    event: d.event,
    body: d.body,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_duration_ms: d.last_duration_ms,
    last_error: d.last_error,
    next_attempt_at: d.next_attempt_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
  });

export const attemptFromRow = (r: DeliveryAttemptRow): DeliveryAttempt => ({
  id: r.id,
  delivery_id: r.delivery_id,
  attempt: Number(r.attempt),
  status_code: optNumber(r.status_code),
  duration_ms: Number(r.duration_ms),
  error: r.error,
  created_at: r.created_at,
});

export const attemptToRow = (a: DeliveryAttempt): DeliveryAttemptRow => ({
  id: a.id,
  delivery_id: a.delivery_id,
  attempt: a.attempt,
  status_code: orNull(a.status_code),
  duration_ms: a.duration_ms,
  error: orNull(a.error),
  created_at: a.created_at,
});

/** Drops the keys whose value is `undefined`: they are absent from a patch, not set to null. */
function pick<T extends object>(row: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(row) as (keyof T)[]) if (row[key] !== undefined) out[key] = row[key];
  return out;
}
