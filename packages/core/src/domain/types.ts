import type { FormMode, QuizMode } from './form-fields';

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';
export const PLAN_NAMES: readonly PlanName[] = ['free', 'pro', 'business', 'enterprise'];
export type KeyScope = 'forms' | 'voice';
export type TeamRole = 'owner' | 'admin' | 'editor' | 'viewer';

export interface User {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  plan: PlanName;
  email_verified: boolean;
  created_at: string;
  updated_at: string;
}

export interface ApiKey {
  id: string;
  user_id: string;
  /** hex SHA-256 of the secret part of the key; the secret itself is never stored. */
  secret_hash: string;
  /** A label its owner chose (account page), or `null`. */
  name: string | null;
  scope: KeyScope;
  monthly_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  /**
   * Who made the key: `owner` from a session of the account itself (the account page), `operator` by the
   * operator or the host's code (`formloom key create`, `AccountService.createKey`). The first proof of the
   * account's address revokes the `owner` keys made before it, never the operator's (docs/security.md).
   */
  made_by: ApiKeyMaker;
}

/** Who made an API key (see `ApiKey.made_by`). */
export type ApiKeyMaker = 'owner' | 'operator';

/** The authenticated caller of a request. */
export interface Principal {
  user_id: string;
  /** `null` when a host authenticates by its own means (no API key). */
  key_id: string | null;
  scope: KeyScope;
  /** The browser session the caller signed in with (docs/accounts.md); absent for API keys and host authentication. */
  session_id?: string | null;
  /** The client's address, for audit logs (set by the HTTP layer). */
  ip_address?: string | null;
}

export interface Question {
  id: string;
  type: string;
  title: string;
  description: string | null;
  required: boolean;
  order: number;
  properties: Record<string, unknown>;
  logic_jumps: unknown[];
  validations: Record<string, unknown>;
}

/**
 * A stored form. The columns that lists filter, sort or show are first-class; every other writable
 * option (style, welcome texts, quiz settings, ...) lives in `options`.
 */
export interface FormRecord {
  id: string;
  owner_id: string;
  team_id: string | null;
  slug: string;
  title: string;
  description: string | null;
  published: boolean;
  has_unpublished_changes: boolean;
  published_version_id: string | null;
  response_count: number;
  theme_color: string | null;
  background_color: string | null;
  options: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface FormWithQuestions extends FormRecord {
  questions: Question[];
}

export interface ChangelogEntry {
  type:
    | 'form_created'
    | 'published'
    | 'question_added'
    | 'question_updated'
    | 'question_deleted'
    | 'question_reordered'
    | 'theme_changed'
    | 'settings_changed'
    | 'title_changed'
    | 'description_changed'
    | 'version_restored';
  description: string;
}

export interface Version {
  id: string;
  form_id: string;
  version: number;
  published_by: string;
  published_by_name: string | null;
  created_at: string;
  changelog: ChangelogEntry[];
  snapshot: Record<string, unknown>;
}

export interface Team {
  id: string;
  name: string;
  slug: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

export interface TeamMember {
  id: string;
  team_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: string;
}

/** A respondent's stored file, counted against its form's quota until the form is deleted. */
export interface UploadRecord {
  id: string;
  form_id: string;
  question_id: string;
  /** The blob-store key, `uploads/<form id>/<token>/<name>`. */
  key: string;
  size: number;
  /** The response whose answer names the file; `null` until then (swept after a day). */
  response_id: string | null;
  created_at: string;
}

export interface OutboxItem {
  id: string;
  /** what the item delivers, e.g. `webhook` or `mail`. */
  kind: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyRecord {
  key: string;
  owner: string;
  status: 'in_progress' | 'done';
  result: Record<string, unknown> | null;
  created_at: string;
  expires_at: string;
}

export type { FormMode };

export interface Answer {
  question_id: string;
  value: unknown;
}

export interface QuizResults {
  score: number;
  correct_answers: number;
  total_scorable_questions: number;
  max_score: number;
  matched_ending_id: string | null;
  form_mode: QuizMode;
}

/** The other response of a Fuse link (docs/logic.md "Fuse"). */
export interface FuseLink {
  form_id: string;
  response_id: string;
}

/** A submission to a form; partial while `completed_at` is null. */
export interface ResponseRecord {
  id: string;
  form_id: string;
  visitor_id: string | null;
  /** The published version the respondent answered. */
  version_id: string | null;
  version: number | null;
  answers: Answer[];
  /**
   * `hidden`: the values of the form's hidden fields given with the response (docs/decisions.md "Form settings");
   * `fused_from` / `fused_to`: the response of the other form a Fuse question linked it to (docs/logic.md "Fuse").
   */
  metadata: {
    user_agent: string | null;
    referrer: string | null;
    hidden?: Record<string, string>;
    fused_from?: FuseLink;
    fused_to?: FuseLink;
    /** A component's response: the composite response it came through (docs/logic.md "Composite"). */
    composite?: { form_id: string; response_id: string; question_id: string };
    /** A composite's response: the responses it stored in its components, in order. */
    components?: Array<{ question_id: string; form_id: string; response_id: string }>;
  };
  quiz_results: QuizResults | null;
  started_at: string | null;
  submitted_at: string;
  completed_at: string | null;
  /** Seconds from start (or first saved answer) to completion; null while partial. */
  completion_seconds: number | null;
  /** SHA-256 hex of the resume token of a partial response. */
  resume_token_hash: string | null;
  /**
   * Set to the visitor id on a completed response of a `limit_one_response` form; unique per form, so a
   * second completed response from the visitor is refused even under concurrency.
   */
  unique_visitor: string | null;
  /** The language the respondent answered in (docs/languages.md); null: the form's default language or unknown. */
  language?: string | null;
}

export interface GlobalWebhook {
  url: string;
  enabled: boolean;
}

/** One webhook delivery: an event to one receiver URL, retried until delivered or given up. */
export interface WebhookDelivery {
  id: string;
  form_id: string;
  response_id: string | null;
  /** The account whose secret signs the delivery. */
  user_id: string;
  url: string;
  event: string;
  /** The exact JSON body sent (signed as is). */
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** The start of what the receiver answered to the last attempt (docs/responses-and-webhooks.md). */
  last_response_excerpt: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The start of the receiver's response body (at most RESPONSE_EXCERPT_CHARS), or null without a response. */
  response_excerpt: string | null;
  created_at: string;
}

export type InvitationStatus = 'pending' | 'accepted' | 'cancelled';

export interface Invitation {
  id: string;
  team_id: string;
  /** Lower-case. */
  email: string;
  role: Exclude<TeamRole, 'owner'>;
  invited_by: string;
  /** SHA-256 hex of the token, for look-ups on accept. */
  token_hash: string;
  /** The token sealed with the instance's secret key, so owners and admins can read it back. */
  token_sealed: string;
  status: InvitationStatus;
  language: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** A member with the user's profile, for listings. */
export interface TeamMemberProfile extends TeamMember {
  email: string;
  first_name: string | null;
  last_name: string | null;
}

export interface TeamBranding {
  logo_url: string | null;
  primary_color: string | null;
  background_color: string | null;
  text_color: string | null;
  font_family: string | null;
  footer_text: string | null;
}

export interface AuditEvent {
  id: string;
  team_id: string;
  action: string;
  user_id: string | null;
  user_email: string | null;
  details: Record<string, unknown>;
  ip_address: string | null;
  timestamp: string;
}

/** Why a form cannot be published (docs/decisions.md, "Publishing"); checked by forms/publish-policy.ts. */
export interface PublishBlock {
  reason: string;
  message: string;
  question_ids: string[];
  upgrade_required: boolean;
  composite_ids?: string[];
}
