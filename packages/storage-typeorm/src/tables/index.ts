import type { EntitySchema } from 'typeorm';
import { ApiKeyEntity, UserEntity } from './accounts';
import { AuditLogEntity } from './audit-logs';
import { BrandingEntity } from './branding';
import { CacheRevisionEntity } from './cache-revision';
import { CreditBalanceEntity, CreditEntryEntity } from './credits';
import { VoiceGenerationEntity, VoiceRetakeEntity } from './voice';
import { QuestionEntity, VersionEntity } from './form-content';
import { FormEntity } from './forms';
import { IdempotencyEntity } from './idempotency';
import { InvitationEntity } from './invitations';
import { OutboxEntity } from './outbox';
import { RateLimitEntity } from './rate-limits';
import { QuestionDayEntity } from './question-days';
import { QuestionValueEntity } from './question-values';
import { ResponseDayEntity } from './response-days';
import { ResponseEntity } from './responses';
import { ResponseAnswerEntity, ResponseFunnelEntity } from './response-answers';
import { AnswerPairEntity } from './answer-pairs';
import { ResponseIndexQueueEntity } from './response-index-queue';
import { TeamEntity, TeamMemberEntity, TeamSsoEntity } from './teams';
import { UploadEntity } from './uploads';
import { InstanceClaimEntity, OneTimeTokenEntity, PasskeyEntity, PasswordEntity, SignInSessionEntity } from './sign-in';
import { SignedDocumentEntity, SigningAuditEntity, SigningSessionEntity, SigningSlotEntity } from './signing';
import { CreditCheckoutEntity, PaymentAccountEntity, PaymentEntity, PaymentEventEntity } from './payments';
import { IntegrationDeliveryEntity, IntegrationEntity } from './integrations';
import { BookingCellEntity, BookingEntity, CalendarConnectionEntity } from './bookings';
import { BookingCallEntity, BookingEventEntity } from './booking-calls';
import { DeliveryAttemptEntity, DeliveryEntity, GlobalWebhookEntity, WebhookSecretEntity } from './webhooks';

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
  ResponseDayEntity,
  QuestionDayEntity,
  QuestionValueEntity,
  ResponseAnswerEntity,
  ResponseFunnelEntity,
  AnswerPairEntity,
  ResponseIndexQueueEntity,
  SigningSessionEntity,
  SigningSlotEntity,
  SignedDocumentEntity,
  SigningAuditEntity,
  CreditEntryEntity,
  VoiceGenerationEntity,
  VoiceRetakeEntity,
  PasswordEntity,
  InstanceClaimEntity,
  SignInSessionEntity,
  OneTimeTokenEntity,
  PasskeyEntity,
  CacheRevisionEntity,
  PaymentEntity,
  CreditCheckoutEntity,
  PaymentAccountEntity,
  PaymentEventEntity,
  IntegrationEntity,
  IntegrationDeliveryEntity,
  BookingEntity,
  BookingCellEntity,
  CalendarConnectionEntity,
  BookingCallEntity,
  BookingEventEntity,
];
