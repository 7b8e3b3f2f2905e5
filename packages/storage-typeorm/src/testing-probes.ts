import type { Probe, StorageProbes, StoredRow } from '@formloom/core/testing';
import type { EntitySchema } from 'typeorm';
import { ApiKeyEntity, UserEntity } from './tables/accounts';
import { AuditLogEntity } from './tables/audit-logs';
import { BrandingEntity } from './tables/branding';
import { CreditBalanceEntity, CreditEntryEntity } from './tables/credits';
import { VoiceGenerationEntity } from './tables/voice';
import { QuestionEntity, VersionEntity } from './tables/form-content';
import { FormEntity } from './tables/forms';
import { IdempotencyEntity } from './tables/idempotency';
import { InvitationEntity } from './tables/invitations';
import { OutboxEntity } from './tables/outbox';
import { RateLimitEntity } from './tables/rate-limits';
import { QuestionDayEntity } from './tables/question-days';
import { ResponseDayEntity } from './tables/response-days';
import { ResponseEntity } from './tables/responses';
import { TeamEntity, TeamMemberEntity, TeamSsoEntity } from './tables/teams';
import { UploadEntity } from './tables/uploads';
import { SignedDocumentEntity, SigningAuditEntity, SigningSessionEntity, SigningSlotEntity } from './tables/signing';
import { DeliveryAttemptEntity, DeliveryEntity, GlobalWebhookEntity, WebhookSecretEntity } from './tables/webhooks';

/** Runs SQL with unqualified table names (as `TestDatabase.raw` does). */
export type RawQuery = (sql: string, params?: unknown[]) => Promise<any[]>;

/**
 * The storage conformance suite's probes for these tables: plain SELECTs by raw SQL, never through the
 * repositories, so the suite checks what the adapter really wrote. Rows come back as the driver hands them
 * (0/1 booleans on SQLite, JSON as text), with columns renamed to the record's field names where they
 * differ (a question's `sort_order` is its `order`).
 */
export function sqlProbes(raw: RawQuery, placeholder: (i: number) => string, caughtUp?: (formId: string) => Promise<void>): StorageProbes {
  const probe = <F extends string>(
    entity: EntitySchema<any>,
    fields: readonly F[],
    rename: Record<string, string> = {},
  ): Probe<F> => {
    const table = entity.options.tableName!;
    return async (where) => {
      const keys = (Object.keys(where) as F[]).filter((k) => where[k] !== undefined);
      if (keys.length === 0) throw new Error(`A probe of ${table} needs at least one field`);
      const unknown = keys.find((k) => !fields.includes(k));
      if (unknown) throw new Error(`${table} cannot be probed by ${unknown}`);
      const conditions = keys.map((k, i) => `"${k}" = ${placeholder(i + 1)}`).join(' AND ');
      const rows: StoredRow[] = await raw(`SELECT * FROM "${table}" WHERE ${conditions}`, keys.map((k) => where[k]));
      return rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([column, value]) => [rename[column] ?? column, value])),
      );
    };
  };
  const questionDays = probe(QuestionDayEntity, ['form_id']);
  return {
    users: probe(UserEntity, ['id']),
    apiKeys: probe(ApiKeyEntity, ['id']),
    creditBalances: probe(CreditBalanceEntity, ['user_id']),
    creditEntries: probe(CreditEntryEntity, ['user_id', 'generation_id']),
    voiceGenerations: probe(VoiceGenerationEntity, ['id', 'user_id']),
    idempotencyKeys: probe(IdempotencyEntity, ['key']),
    forms: probe(FormEntity, ['id', 'slug', 'team_id']),
    questions: probe(QuestionEntity, ['form_id'], { sort_order: 'order' }),
    versions: probe(VersionEntity, ['form_id']),
    teams: probe(TeamEntity, ['id', 'slug']),
    teamMembers: probe(TeamMemberEntity, ['id', 'team_id']),
    teamSso: probe(TeamSsoEntity, ['team_id']),
    invitations: probe(InvitationEntity, ['id', 'team_id', 'token_hash']),
    branding: probe(BrandingEntity, ['team_id']),
    auditLogs: probe(AuditLogEntity, ['id', 'team_id']),
    outbox: probe(OutboxEntity, ['id', 'kind']),
    responses: probe(ResponseEntity, ['id', 'form_id', 'unique_visitor']),
    responseDays: probe(ResponseDayEntity, ['form_id']),
    // The analytics indexer's counters as a reader sees them: the form's queued responses counted first
    // (repositories/response-indexer.ts), as every read of them does.
    questionDays: async (where) => {
      if (caughtUp && typeof where.form_id === 'string') await caughtUp(where.form_id);
      return questionDays(where);
    },
    globalWebhooks: probe(GlobalWebhookEntity, ['user_id']),
    webhookSecrets: probe(WebhookSecretEntity, ['user_id']),
    deliveries: probe(DeliveryEntity, ['id', 'form_id']),
    deliveryAttempts: probe(DeliveryAttemptEntity, ['id', 'delivery_id']),
    uploads: probe(UploadEntity, ['id', 'form_id']),
    rateLimits: probe(RateLimitEntity, ['bucket_key']),
    signingSessions: probe(SigningSessionEntity, ['id', 'form_id']),
    signingSlots: probe(SigningSlotEntity, ['session_id', 'short_code']),
    signedDocuments: probe(SignedDocumentEntity, ['session_id']),
    signingAudit: probe(SigningAuditEntity, ['session_id']),
  };
}
