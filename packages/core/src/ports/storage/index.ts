import type { ApiKeyRepository } from './api-keys';
import type { AuditLogRepository } from './audit-logs';
import type { BrandingRepository } from './branding';
import type { CreditRepository } from './credits';
import type { DeliveryRepository } from './deliveries';
import type { FormRepository } from './forms';
import type { IdempotencyRepository } from './idempotency';
import type { InvitationRepository } from './invitations';
import type { OutboxRepository } from './outbox';
import type { QuestionRepository } from './questions';
import type { RateLimitRepository } from './rate-limits';
import type { ResponseRepository } from './responses';
import type { TeamRepository } from './teams';
import type { UploadRepository } from './uploads';
import type { VoiceGenerationRepository } from './voice-generations';
import type { UserRepository } from './users';
import type { VersionRepository } from './versions';
import type { WebhookRepository } from './webhooks';
import type { SigningRepository } from './signing';
import type { CredentialRepository } from './credentials';
import type { SignInSessionRepository } from './sign-in-sessions';
import type { OneTimeTokenRepository } from './one-time-tokens';
import type { PasskeyRepository } from './passkeys';
import type { CacheRevisionRepository } from './cache-revision';
import type { PaymentRepository } from './payments';
import type { IntegrationRepository } from './integrations';
import type { BookingRepository } from './bookings';
import type { BookingCallRepository } from './booking-calls';

export type { Page } from './page';
export type { UserRepository } from './users';
export type { ApiKeyRepository } from './api-keys';
export type { FormListQuery, FormRepository } from './forms';
export type { QuestionRepository } from './questions';
export type { VersionRepository } from './versions';
export type { TeamRepository } from './teams';
export type { InvitationRepository } from './invitations';
export type { BrandingRepository } from './branding';
export type { AuditLogRepository, AuditQuery } from './audit-logs';
export type { CreditEntry, CreditEntryKind, CreditRepository, GenerationSpend, SpendOutcome } from './credits';
export type { IdempotencyRepository } from './idempotency';
export type { RateLimitCounter, RateLimitRepository } from './rate-limits';
export type { OutboxClaim, OutboxRepository } from './outbox';
export type { UploadRepository } from './uploads';
export type { FreeRetakeClaim, FreeRetakeOutcome, GenerationLine, RetakeUsage, VoiceGeneration, VoiceGenerationRepository } from './voice-generations';
export type { CsvLine, CsvLineSource, FunnelCounts, PackedResponses, QuestionDropOff, QuestionValueCount, ResponseAnalytics, ResponseFilter, ResponseListQuery, ResponseRepository } from './responses';
export type { WebhookRepository } from './webhooks';
export type { DeliveryRepository } from './deliveries';
export type { AuditEntryBuilder, SigningRepository } from './signing';
export type { CredentialRepository } from './credentials';
export type { SignInSessionRepository } from './sign-in-sessions';
export type { OneTimeTokenRepository } from './one-time-tokens';
export type { PasskeyRepository } from './passkeys';
export type { CacheRevisionRead, CacheRevisionRepository } from './cache-revision';
export type { CreditCheckoutRecord, PaymentAccountRecord, PaymentRecord, PaymentRepository, PaymentStatus } from './payments';
export type * from './integrations';
export type { BookingRecord, BookingRepository, BookingStatus, CalendarConnectionRecord } from './bookings';
export { BOOKING_CELL_MINUTES } from './bookings';
export type { BookingCallOutcome, BookingCallRecord, BookingCallRepository, BookingCallState, BookingEventRecord } from './booking-calls';

/**
 * Persistence of every entity: one repository per aggregate (each documented in its own file of this
 * folder), and transactions.
 *
 * Contracts every adapter keeps (checked by the storage conformance suite, `@formloom/core/testing`):
 * - "Not found" is `null` (or `false` / 0 / `[]` where the method says so), never an exception.
 * - A taken id or unique key is a `FormloomError` with code `CONFLICT` (checked by its `code`) and writes
 *   nothing; inside a transaction it leaves the transaction usable unless the method says otherwise.
 * - Methods that state a concurrency guarantee ("exactly one wins", "never below zero") keep it under
 *   any number of concurrent callers, also across processes sharing the database.
 *
 * Repositories on the root object run each call on its own; inside `transaction` the callback's `tx` runs
 * all calls in one transaction that commits when the callback resolves and rolls back when it throws.
 * Root calls made within the callback's async context join that transaction (so a port that reads storage
 * cannot deadlock or miss the transaction's writes), but services should pass `tx` explicitly. Adapters
 * for databases without concurrent writers (SQLite) serialise transactions so that concurrent callers never
 * fail.
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
  readonly voiceGenerations: VoiceGenerationRepository;
  readonly responses: ResponseRepository;
  readonly webhooks: WebhookRepository;
  readonly deliveries: DeliveryRepository;
  readonly invitations: InvitationRepository;
  readonly branding: BrandingRepository;
  readonly auditLogs: AuditLogRepository;
  readonly rateLimits: RateLimitRepository;
  readonly signing: SigningRepository;
  /** Sign-in (docs/accounts.md): passwords and the admin slot, sessions, one-time tokens, passkeys. */
  readonly credentials: CredentialRepository;
  readonly signInSessions: SignInSessionRepository;
  readonly oneTimeTokens: OneTimeTokenRepository;
  readonly passkeys: PasskeyRepository;
  readonly cacheRevision: CacheRevisionRepository;
  /** Payments of payment questions, credit checkouts, connected accounts, applied events (docs/payments.md). */
  readonly payments: PaymentRepository;
  /** A form's integrations and their delivery logs (docs/integrations.md). */
  readonly integrations: IntegrationRepository;
  /** Booked and held slots, owners' calendar connections (docs/booking.md). */
  readonly bookings: BookingRepository;
  /** Bookings' confirmation calls and audit trails (docs/booking.md, "Confirmation calls"). */
  readonly bookingCalls: BookingCallRepository;
  /**
   * Runs `work` in one transaction and resolves with its result: committed when `work` resolves, rolled
   * back when it throws (the error is rethrown as is). Calls outside never see its uncommitted writes.
   * Nested calls (`tx.transaction`) join the same transaction.
   */
  transaction<T>(work: (tx: Storage) => Promise<T>): Promise<T>;
}
