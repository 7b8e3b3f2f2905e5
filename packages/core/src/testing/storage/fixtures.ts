import { randomBytes } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type {
  ApiKey,
  AuditEvent,
  DeliveryAttempt,
  FormRecord,
  Invitation,
  OutboxItem,
  Question,
  ResponseRecord,
  Team,
  TeamBranding,
  TeamMember,
  User,
  Version,
  WebhookDelivery,
} from '../../domain/types';
import type { Storage } from '../../ports/storage';
import type { StorageProbes, StoredRow } from './probes';

/** A storage under test plus the adapter's probes, to check what it really wrote. */
export interface StorageHarnessInstance {
  storage: Storage;
  /** Reads of the stored rows that bypass the adapter's repositories. */
  probes: StorageProbes;
  close(): Promise<void>;
}

export interface StorageHarness {
  /** Prefixes every test title, e.g. `sqlite` or `postgres`. */
  name: string;
  /** Called once per test file; every test then makes its own rows. */
  create(): Promise<StorageHarnessInstance>;
}

export type StorageTest = (title: string, body: (t: ExecutionContext, db: StorageHarnessInstance) => Promise<void>) => void;

const run = randomBytes(4).toString('hex');
let seq = 0;
/** An id no other test (nor another run on the same database) uses. */
export const uid = (prefix: string) => `${prefix}_${run}_${(++seq).toString(36)}`;

const EPOCH = Date.UTC(2030, 0, 1);
/** ISO-8601 with milliseconds, `seconds` after a fixed instant: timestamps that sort as text. */
export const at = (seconds: number) => new Date(EPOCH + seconds * 1000).toISOString();

/** Booleans as either database hands them back raw (true/1). */
export const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 't';

/** How many rows a probe found. */
export const count = async (rows: Promise<StoredRow[]>) => (await rows).length;

/** A CONFLICT FormloomError (checked by shape: an adapter may load its own copy of @formloom/core). */
export async function rejectsWithConflict(t: ExecutionContext, promise: Promise<unknown>, label: string) {
  const err = await t.throwsAsync(promise, undefined, label);
  t.is((err as { code?: string } | undefined)?.code, 'CONFLICT', label);
}

export const makeUser = (over: Partial<User> = {}): User => {
  const id = over.id ?? uid('usr');
  return {
    id,
    email: `${id}@example.com`,
    first_name: 'Ada',
    last_name: null,
    plan: 'free',
    email_verified: false,
    created_at: at(0),
    updated_at: at(0),
    ...over,
  };
};

export const makeApiKey = (userId: string, over: Partial<ApiKey> = {}): ApiKey => ({
  id: uid('key'),
  user_id: userId,
  secret_hash: randomBytes(32).toString('hex'),
  name: null,
  scope: 'forms',
  monthly_limit: null,
  created_at: at(0),
  revoked_at: null,
  expires_at: null,
  made_by: 'owner',
  ...over,
});

export const makeForm = (over: Partial<FormRecord> = {}): FormRecord => {
  const id = over.id ?? uid('frm');
  return {
    id,
    owner_id: uid('usr'),
    team_id: null,
    slug: `s-${id}`,
    title: `Form ${id}`,
    description: null,
    published: false,
    has_unpublished_changes: false,
    published_version_id: null,
    response_count: 0,
    theme_color: null,
    background_color: null,
    options: {},
    created_at: at(0),
    updated_at: at(0),
    ...over,
  };
};

export const makeQuestion = (order: number, over: Partial<Question> = {}): Question => ({
  id: uid('q'),
  type: 'short_text',
  title: `Question ${order}`,
  description: null,
  required: false,
  order,
  properties: {},
  logic_jumps: [],
  validations: {},
  ...over,
});

export const makeVersion = (formId: string, version: number, over: Partial<Version> = {}): Version => ({
  id: uid('ver'),
  form_id: formId,
  version,
  published_by: uid('usr'),
  published_by_name: null,
  created_at: at(version),
  changelog: [{ type: 'published', description: `Version ${version}` }],
  snapshot: { title: `v${version}`, questions: [] },
  ...over,
});

export const makeTeam = (over: Partial<Team> = {}): Team => {
  const id = over.id ?? uid('team');
  return { id, name: `Team ${id}`, slug: `t-${id}`, owner_id: uid('usr'), created_at: at(0), updated_at: at(0), ...over };
};

export const makeMember = (teamId: string, userId: string, over: Partial<TeamMember> = {}): TeamMember => ({
  id: uid('mem'),
  team_id: teamId,
  user_id: userId,
  role: 'editor',
  joined_at: at(0),
  ...over,
});

export const makeOutboxItem = (kind: string, over: Partial<OutboxItem> = {}): OutboxItem => ({
  id: uid('obx'),
  kind,
  payload: { url: 'https://example.com/hook', n: 1 },
  status: 'pending',
  attempts: 0,
  next_attempt_at: at(0),
  locked_by: null,
  locked_until: null,
  last_error: null,
  created_at: at(0),
  updated_at: at(0),
  ...over,
});

/** A completed response submitted `seconds` after the fixed instant. */
export const makeResponse = (formId: string, seconds = 0, over: Partial<ResponseRecord> = {}): ResponseRecord => ({
  id: uid('rsp'),
  form_id: formId,
  visitor_id: null,
  version_id: null,
  version: null,
  answers: [{ question_id: 'q1', value: 'hello' }],
  metadata: { user_agent: 'test', referrer: null },
  quiz_results: null,
  started_at: at(seconds - 30),
  submitted_at: at(seconds),
  completed_at: at(seconds),
  completion_seconds: 30,
  resume_token_hash: null,
  unique_visitor: null,
  language: null,
  ...over,
});

/**
 * Stores `responses` in one transaction, all sent at once: the adapter writes calls made together as statements of
 * many rows (its group commit's path), where one awaited insert each costs a round trip to the database per row
 * (4,500 of them in one export test). For tests whose subject is what is read back, not the insert.
 */
export async function insertResponses(storage: Storage, responses: ResponseRecord[]): Promise<void> {
  await storage.transaction(async (tx) => {
    // Every insert settles before the transaction ends, whichever fails: none is still running at its rollback.
    const settled = await Promise.allSettled(responses.map((r) => tx.responses.insert(r)));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  });
}

export const makeDelivery = (formId: string, over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: uid('dlv'),
  form_id: formId,
  response_id: null,
  user_id: uid('usr'),
  url: 'https://example.com/hook',
  event: 'response.submitted',
  body: '{"event":"response.submitted"}',
  status: 'pending',
  attempts: 0,
  last_status_code: null,
  last_duration_ms: null,
  last_error: null,
  last_response_excerpt: null,
  next_attempt_at: at(0),
  created_at: at(0),
  updated_at: at(0),
  ...over,
});

export const makeAttempt = (deliveryId: string, attempt: number, over: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  id: uid('att'),
  delivery_id: deliveryId,
  attempt,
  status_code: 500,
  duration_ms: 12,
  error: null,
  response_excerpt: null,
  created_at: at(attempt),
  ...over,
});

/** A pending invitation to a lower-case address, created `seconds` after the fixed instant, valid a week. */
export const makeInvitation = (teamId: string, seconds = 0, over: Partial<Invitation> = {}): Invitation => {
  const id = over.id ?? uid('inv');
  return {
    id,
    team_id: teamId,
    email: `${id}@example.com`,
    role: 'editor',
    invited_by: uid('usr'),
    token_hash: randomBytes(32).toString('hex'),
    token_sealed: `sealed:${randomBytes(24).toString('base64')}`,
    status: 'pending',
    language: 'en',
    expires_at: at(seconds + 7 * 86_400),
    created_at: at(seconds),
    updated_at: at(seconds),
    ...over,
  };
};

export const makeBranding = (over: Partial<TeamBranding> = {}): TeamBranding => ({
  logo_url: 'https://cdn.example.com/logo.png',
  primary_color: '#112233',
  background_color: '#ffffff',
  text_color: null,
  font_family: 'Inter',
  footer_text: 'Made with care',
  ...over,
});

export const makeAuditEvent = (teamId: string, seconds = 0, over: Partial<AuditEvent> = {}): AuditEvent => ({
  id: uid('aud'),
  team_id: teamId,
  action: 'team.renamed',
  user_id: uid('usr'),
  user_email: null,
  details: { from: 'A', to: 'B' },
  ip_address: '203.0.113.7',
  timestamp: at(seconds),
  ...over,
});
