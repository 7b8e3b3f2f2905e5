import type {
  AuditEvent,
  Invitation,
  TeamBranding,
  TeamMemberProfile,
  DeliveryAttempt,
  GlobalWebhook,
  ResponseRecord,
  WebhookDelivery,
  ApiKey,
  FormRecord,
  IdempotencyRecord,
  OutboxItem,
  UploadRecord,
  Question,
  Team,
  TeamRole,
  TeamMember,
  User,
  Version,
} from '../domain/types';

/** A page of a list, with the total before paging. */
export interface Page<T> {
  items: T[];
  total: number;
}

export interface UserRepository {
  /** Inserts a user. Throws `FormloomError` CONFLICT when the email is taken (case-insensitive). */
  insert(user: User): Promise<void>;
  /** The user, or `null` when there is none. */
  findById(id: string): Promise<User | null>;
  /** The user with this email compared lower-case, or `null`. */
  findByEmail(email: string): Promise<User | null>;
  /** Applies the patch; returns the updated user or `null` when there is none. */
  update(id: string, patch: Partial<Omit<User, 'id' | 'created_at'>>): Promise<User | null>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  /** The key (revoked or not), or `null`. */
  findById(id: string): Promise<ApiKey | null>;
  /** Marks the key revoked at `at`; `false` when there is no such key or it was already revoked. */
  revoke(id: string, at: string): Promise<boolean>;
}

export interface FormListQuery {
  /** Forms owned personally by this user (`team_id` null) ... */
  ownerId: string;
  /** ... or belonging to one of these teams. */
  teamIds: string[];
  /** Case-insensitive partial match on the title. */
  search?: string;
  teamId?: string;
  published?: boolean;
  offset: number;
  limit: number;
}

export interface FormRepository {
  /** Inserts the form. Throws CONFLICT when the id or slug exists. */
  insert(form: FormRecord): Promise<void>;
  /** The form, or `null`. */
  findById(id: string): Promise<FormRecord | null>;
  /** The form with this slug, or `null`. */
  findBySlug(slug: string): Promise<FormRecord | null>;
  /** Forms matching the query, newest `updated_at` first (ties by id), with the total before paging. */
  list(query: FormListQuery): Promise<Page<FormRecord>>;
  /** Applies the patch; returns the updated form or `null` when there is none. */
  update(id: string, patch: Partial<Omit<FormRecord, 'id'>>): Promise<FormRecord | null>;
  /** Adds `delta` to `response_count` atomically; returns the new count, or `null` when there is no form. */
  addResponseCount(id: string, delta: number): Promise<number | null>;
  /** Deletes the form with its questions, versions, responses and webhook deliveries; `false` when there was none. */
  delete(id: string): Promise<boolean>;
}

export interface QuestionRepository {
  /** The form's questions ordered by `order`. */
  listByForm(formId: string): Promise<Question[]>;
  /**
   * Makes `questions` the form's exact question set: ids present are updated, new ids inserted, the
   * form's other questions deleted. Call inside a transaction to make it atomic with the form update.
   */
  replaceForForm(formId: string, questions: Question[]): Promise<void>;
}

export interface VersionRepository {
  insert(version: Version): Promise<void>;
  /** The form's versions, highest `version` first. */
  listByForm(formId: string): Promise<Version[]>;
  /** The version, or `null`. */
  findById(id: string): Promise<Version | null>;
  /** The form's highest version, or `null` when it was never published. */
  latest(formId: string): Promise<Version | null>;
}

export interface TeamRepository {
  /** The team, or `null`. */
  findById(id: string): Promise<Team | null>;
  /** The memberships of a user, all teams. */
  membershipsOf(userId: string): Promise<TeamMember[]>;
  /** The user's membership in the team, or `null`. */
  findMember(teamId: string, userId: string): Promise<TeamMember | null>;
  /** Inserts a team; the team's `sso_domain_verify_token` is stored with it. Throws CONFLICT on a taken slug. */
  insert(team: Team, extra?: { sso_domain_verify_token?: string | null }): Promise<void>;
  /** Inserts a membership. Throws CONFLICT when the user is already a member. */
  insertMember(member: TeamMember): Promise<void>;
  /** Applies the patch; returns the updated team or `null`. */
  update(id: string, patch: Partial<Pick<Team, 'name' | 'slug' | 'updated_at'>>): Promise<Team | null>;
  /** Deletes the team with its memberships, invitations and branding (its forms stay); `false` when none. */
  delete(id: string): Promise<boolean>;
  /** The team's SSO domain verification token, or `null`. */
  ssoDomainVerifyToken(id: string): Promise<string | null>;
  /** The teams a user belongs to with the user's role and each team's member count, by team name. */
  listForUser(userId: string): Promise<Array<{ team: Team; role: TeamRole; member_count: number }>>;
  memberCount(teamId: string): Promise<number>;
  /** Members with their users' profiles, by `joined_at` (the owner first). */
  listMembers(teamId: string): Promise<TeamMemberProfile[]>;
  /** A membership by its id within the team, or `null`. */
  findMemberById(teamId: string, memberId: string): Promise<TeamMember | null>;
  /** Sets a member's role; returns the updated membership or `null`. */
  updateMemberRole(teamId: string, memberId: string, role: TeamRole): Promise<TeamMember | null>;
  /** Deletes a membership; `false` when it did not exist. */
  deleteMember(teamId: string, memberId: string): Promise<boolean>;
  /**
   * Inside a transaction, locks the team row until commit (PostgreSQL `SELECT ... FOR UPDATE`), so that
   * seat and duplicate checks followed by an insert are atomic. SQLite's serialised transactions need none.
   */
  lock(teamId: string): Promise<void>;
}

export interface InvitationRepository {
  insert(invitation: Invitation): Promise<void>;
  /** By id within the team, or `null`. */
  findById(teamId: string, id: string): Promise<Invitation | null>;
  /** By token hash, whatever its state, or `null`. */
  findByTokenHash(tokenHash: string): Promise<Invitation | null>;
  /** Pending invitations whose `expires_at` is after `now`, newest first. */
  listPending(teamId: string, now: string): Promise<Invitation[]>;
  /** How many pending invitations are unexpired at `now` (they hold seats). */
  countPending(teamId: string, now: string): Promise<number>;
  /** An unexpired pending invitation for the (lower-case) email, or `null`. */
  findPendingByEmail(teamId: string, email: string, now: string): Promise<Invitation | null>;
  /**
   * Moves a pending invitation to `status` as one conditional update; `false` when it was not pending
   * (so of concurrent accepts exactly one wins).
   */
  settle(id: string, status: 'accepted' | 'cancelled', at: string): Promise<boolean>;
  /** Cancels every pending invitation of the team for the (lower-case) email; returns how many. */
  cancelForEmail(teamId: string, email: string, at: string): Promise<number>;
}

export interface BrandingRepository {
  /** The team's branding, or `null` when none was set. */
  get(teamId: string): Promise<TeamBranding | null>;
  /** Stores the whole branding (upsert). */
  put(teamId: string, branding: TeamBranding): Promise<void>;
  /** Removes it; `false` when there was none. */
  delete(teamId: string): Promise<boolean>;
}

export interface AuditQuery {
  teamId: string;
  action?: string;
  userId?: string;
  /** Inclusive bounds on `timestamp`. */
  since?: string;
  until?: string;
  offset: number;
  limit: number;
}

export interface AuditLogRepository {
  insert(event: AuditEvent): Promise<void>;
  /** Newest first (ties by id descending), with the total before paging. */
  list(query: AuditQuery): Promise<Page<AuditEvent>>;
}

export interface CreditRepository {
  /** The balance in credits; 0 for a user who never had any. */
  balance(userId: string): Promise<number>;
  /** Adds credits (a purchase or a refund) and returns the new balance. */
  add(userId: string, amount: number): Promise<number>;
  /**
   * Takes `amount` credits only when the balance covers it, as one atomic conditional update:
   * under any number of concurrent calls the balance never goes below zero. Returns the new
   * balance, or `null` when the balance was too low (nothing taken).
   */
  spend(userId: string, amount: number): Promise<number | null>;
}

export interface IdempotencyRepository {
  /**
   * Claims `key` for `owner`. Exactly one of any number of concurrent claims of an unexpired key
   * returns `true`; an expired record is replaced by a new claim.
   */
  claim(record: Omit<IdempotencyRecord, 'status' | 'result'>, now: string): Promise<boolean>;
  /** Stores the result of a claimed key and marks it done. */
  complete(key: string, result: Record<string, unknown>): Promise<void>;
  /** Forgets a claim (the work failed and may be retried). */
  release(key: string): Promise<void>;
  /** The record, or `null`. */
  find(key: string): Promise<IdempotencyRecord | null>;
}

/** A rate-limit counter after a hit: its count in the current window and when that window ends (ISO 8601). */
export interface RateLimitCounter {
  hits: number;
  resets_at: string;
}

/**
 * Fixed-window request counters shared by every instance on the database (docs/security.md). Timestamps
 * are ISO 8601 UTC strings with milliseconds, compared as text like every other timestamp.
 */
export interface RateLimitRepository {
  /**
   * Counts one hit on `key` as one atomic upsert-increment: while the key's window ends after `now` the
   * count grows by one; otherwise (no row, or the window ended) a window ending at `resetsAt` starts with
   * one hit. Under any number of concurrent hits (also from other processes) no hit is lost.
   */
  hit(key: string, now: string, resetsAt: string): Promise<RateLimitCounter>;
  /**
   * Takes back one hit of the key's window running at `now` (an attempt counted before it was known to be
   * allowed, such as a sign-in that succeeded); nothing when the window ended or holds no hit.
   */
  release(key: string, now: string): Promise<void>;
  /** The key's counter when its window ends after `now`, else `null`; counts nothing. */
  peek(key: string, now: string): Promise<RateLimitCounter | null>;
  /** Deletes counters whose window ended at or before `before`; returns how many. */
  prune(before: string): Promise<number>;
}

export interface OutboxClaim {
  workerId: string;
  /** Items due at or before `now` whose lease is free or expired. */
  now: string;
  /** The lease end set on claimed items. */
  leaseUntil: string;
  limit: number;
  kinds?: string[];
}

export interface OutboxRepository {
  /** Adds a pending item. Call in the transaction that records the cause, so neither exists alone. */
  enqueue(item: OutboxItem): Promise<void>;
  /**
   * Leases up to `limit` due pending items to `workerId`. An item is leased to one worker at a time:
   * concurrent claims (also from other processes on the same database) never return the same item.
   */
  claim(claim: OutboxClaim): Promise<OutboxItem[]>;
  /** Ends an item leased by `workerId` as delivered or failed, or puts it back with a new due time. */
  settle(
    id: string,
    workerId: string,
    outcome:
      | { status: 'delivered' | 'failed'; error?: string | null }
      | { status: 'pending'; nextAttemptAt: string; error?: string | null },
    now: string,
  ): Promise<boolean>;
  /** The item, or `null`. */
  findById(id: string): Promise<OutboxItem | null>;
  /** Empties the payload of a settled item (a sent mail's body holds secrets: docs/security.md). */
  clearPayload(id: string): Promise<void>;
  /**
   * Deletes up to `limit` delivered or failed items settled (`updated_at`) before `before`, of `kinds`
   * when given; returns how many. Pending items are never deleted.
   */
  purge(query: { before: string; limit: number; kinds?: string[] }): Promise<number>;
}

export interface UploadRepository {
  insert(upload: UploadRecord): Promise<void>;
  /** Deletes one upload's row. */
  delete(id: string): Promise<void>;
  /** Bytes of all the form's uploads (attached or not). */
  totalSize(formId: string): Promise<number>;
  /** Marks the form's unattached uploads with these keys as answers of `responseId`; returns how many. */
  attach(formId: string, keys: string[], responseId: string): Promise<number>;
  /**
   * Deletes up to `limit` uploads still unattached that were created before `before` and returns them
   * (one statement, so an upload attached meanwhile is never taken).
   */
  takeUnattached(before: string, limit: number): Promise<UploadRecord[]>;
}

export interface ResponseListQuery {
  formId: string;
  /** Inclusive bounds on `submitted_at` (ISO strings). */
  since?: string;
  until?: string;
  completed?: boolean;
  offset: number;
  limit: number;
}

export interface ResponseAnalytics {
  total: number;
  completed: number;
  /** Mean `completion_seconds` of completed responses, or null when none. */
  average_completion_seconds: number | null;
  /** Per UTC day of `submitted_at` (YYYY-MM-DD), ascending. */
  by_day: Array<{ date: string; total: number; completed: number }>;
}

export interface ResponseRepository {
  /** Inserts a response. Throws CONFLICT when `unique_visitor` repeats one of the same form. */
  insert(response: ResponseRecord): Promise<void>;
  /** The form's response, or `null`. */
  findById(formId: string, id: string): Promise<ResponseRecord | null>;
  /**
   * Updates a partial response only while it is still partial (`completed_at` null), atomically; `false`
   * when it is missing or already completed. Throws CONFLICT on a repeated `unique_visitor`.
   */
  updatePartial(
    formId: string,
    id: string,
    patch: Pick<ResponseRecord, 'answers' | 'completed_at' | 'completion_seconds' | 'quiz_results' | 'unique_visitor' | 'submitted_at'>,
  ): Promise<boolean>;
  /** Newest `submitted_at` first (ties by id descending), with the total before paging. */
  list(query: ResponseListQuery): Promise<Page<ResponseRecord>>;
  /** Deletes one response; `false` when it is not the form's. */
  delete(formId: string, id: string): Promise<boolean>;
  /** How many of `ids` (distinct) belong to the form. */
  countOwned(formId: string, ids: string[]): Promise<number>;
  /** Deletes those of `ids` that belong to the form; returns how many. */
  deleteMany(formId: string, ids: string[]): Promise<number>;
  /**
   * The form's responses in (`submitted_at`, `id`) ascending order after the keyset `after`, at most
   * `limit`: export reads a form of any size in constant memory.
   */
  scan(formId: string, after: { submitted_at: string; id: string } | null, limit: number): Promise<ResponseRecord[]>;
  /**
   * The form's responses for the CSV export, in (`submitted_at`, `id`) ascending order, as packed pages
   * of at most `pageSize`: one buffer per page instead of an object per response, which is what keeps an
   * export of 100,000 responses near the database's own speed. The adapter may read the next page while
   * the caller formats the current one; it releases what it holds when iteration ends or is abandoned
   * (`return()`).
   */
  exportPages(formId: string, pageSize: number): AsyncIterable<PackedResponses>;
  /** Aggregates computed by the database over `submitted_at` in [since, until]. */
  analytics(formId: string, since?: string, until?: string): Promise<ResponseAnalytics>;
  /** Whether the form has a completed response with this `unique_visitor`. */
  hasUniqueVisitor(formId: string, visitor: string): Promise<boolean>;
}

/**
 * Responses packed for the CSV export, in UTF-8: for each response, `id`, `submitted_at`, `completed_at`
 * (empty when null) and its answers' JSON text as stored, separated by 0x1F (unit separator) and closed by
 * 0x1E (record separator). Neither can occur in those fields: ids and timestamps are ours, and JSON
 * escapes control characters inside strings.
 */
export interface PackedResponses {
  /** Responses in `bytes`. */
  count: number;
  bytes: Uint8Array;
}

export interface WebhookRepository {
  /** The account's global webhooks in their stored order. */
  listGlobal(userId: string): Promise<GlobalWebhook[]>;
  /** Replaces the account's global webhooks. */
  replaceGlobal(userId: string, hooks: GlobalWebhook[]): Promise<void>;
  /** The account's signing secret (as stored by the caller, e.g. encrypted), or `null`. */
  getSecret(userId: string): Promise<string | null>;
  /** Stores `secret` only when the account has none; returns the secret in force afterwards (race-safe). */
  createSecretIfAbsent(userId: string, secret: string): Promise<string>;
  /** Replaces the secret. */
  setSecret(userId: string, secret: string): Promise<void>;
}

export interface DeliveryRepository {
  insert(delivery: WebhookDelivery): Promise<void>;
  findById(id: string): Promise<WebhookDelivery | null>;
  update(id: string, patch: Partial<Omit<WebhookDelivery, 'id'>>): Promise<void>;
  /** The form's deliveries, newest first. */
  listByForm(formId: string, offset: number, limit: number): Promise<Page<WebhookDelivery>>;
  insertAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** A delivery's attempts, oldest first. */
  listAttempts(deliveryId: string): Promise<DeliveryAttempt[]>;
}

/**
 * Persistence of every entity. Repositories on the root object run each call on its own; inside
 * `transaction` the callback's `tx` runs all calls in one transaction that commits when the callback
 * resolves and rolls back when it throws. Root calls made within the callback's async context join that
 * transaction (so a port that reads storage cannot deadlock or miss the transaction's writes), but services
 * should pass `tx` explicitly. Adapters for databases without concurrent writers (SQLite) serialise
 * transactions so that concurrent callers never fail.
 */
export interface Storage {
  readonly users: UserRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly forms: FormRepository;
  readonly questions: QuestionRepository;
  readonly versions: VersionRepository;
  readonly teams: TeamRepository;
  readonly credits: CreditRepository;
  readonly idempotency: IdempotencyRepository;
  readonly outbox: OutboxRepository;
  readonly uploads: UploadRepository;
  readonly responses: ResponseRepository;
  readonly webhooks: WebhookRepository;
  readonly deliveries: DeliveryRepository;
  readonly invitations: InvitationRepository;
  readonly branding: BrandingRepository;
  readonly auditLogs: AuditLogRepository;
  readonly rateLimits: RateLimitRepository;
  /** Runs `work` in one transaction; nested calls on `tx` join the same transaction. */
  transaction<T>(work: (tx: Storage) => Promise<T>): Promise<T>;
}
