import type { IntegrationDeliveryRecord, IntegrationRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, int, optInt, fromJson, toJson, optNumber, pick } from './columns';
import type { FormRow } from './forms';

/* A form's integrations and their deliveries (docs/integrations.md). Tables as TypeORM entities, row types and mappers (see columns.ts). */

export interface IntegrationRow {
  id: string;
  form_id: string;
  type: string;
  name: string;
  status: string;
  paused_reason: string | null;
  config: string;
  secrets: string | null;
  fields: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export const IntegrationEntity = new EntitySchema<IntegrationRow & { form?: FormRow }>({
  name: 'FormloomIntegration',
  tableName: 'integrations',
  columns: {
    id,
    form_id: str,
    type: str,
    name: str,
    status: str,
    paused_reason: optText,
    config: text,
    secrets: optText,
    fields: optText,
    created_by: str,
    created_at: str,
    updated_at: str,
  },
  relations: {
    form: { type: 'many-to-one', target: 'FormloomForm', joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_integrations_form_id' }, onDelete: 'CASCADE' },
  },
  indices: [{ name: 'IDX_integrations_form', columns: ['form_id', 'created_at'] }],
});

export interface IntegrationDeliveryRow {
  id: string;
  integration_id: string;
  form_id: string;
  response_id: string | null;
  event: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_response_excerpt: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export const IntegrationDeliveryEntity = new EntitySchema<IntegrationDeliveryRow & { integration?: IntegrationRow }>({
  name: 'FormloomIntegrationDelivery',
  tableName: 'integration_deliveries',
  columns: {
    id,
    integration_id: str,
    form_id: str,
    response_id: optStr,
    event: str,
    status: str,
    attempts: int,
    last_status_code: optInt,
    last_duration_ms: optInt,
    last_error: optText,
    last_response_excerpt: optText,
    next_attempt_at: optStr,
    created_at: str,
    updated_at: str,
  },
  relations: {
    integration: {
      type: 'many-to-one',
      target: 'FormloomIntegration',
      joinColumn: { name: 'integration_id', foreignKeyConstraintName: 'FK_integration_deliveries_integration_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'IDX_integration_deliveries_integration_created', columns: ['integration_id', 'created_at'] }],
});

export const integrationFromRow = (r: IntegrationRow): IntegrationRecord => ({
  id: r.id,
  form_id: r.form_id,
  type: r.type,
  name: r.name,
  status: r.status === 'paused' ? 'paused' : 'active',
  paused_reason: r.paused_reason ?? null,
  config: fromJson(r.config, {}),
  secrets: r.secrets ?? null,
  fields: fromJson(r.fields, null),
  created_by: r.created_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Whole record or patch: only the fields present. */
export const integrationToRow = (r: Partial<IntegrationRecord>): Partial<IntegrationRow> =>
  pick({
    id: r.id,
    form_id: r.form_id,
    type: r.type,
    name: r.name,
    status: r.status,
    paused_reason: r.paused_reason,
    config: r.config === undefined ? undefined : toJson(r.config, {}),
    secrets: r.secrets,
    fields: r.fields === undefined ? undefined : r.fields === null ? null : toJson(r.fields, []),
    created_by: r.created_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });

export const integrationDeliveryFromRow = (r: IntegrationDeliveryRow): IntegrationDeliveryRecord => ({
  id: r.id,
  integration_id: r.integration_id,
  form_id: r.form_id,
  response_id: r.response_id ?? null,
  event: r.event as IntegrationDeliveryRecord['event'],
  status: r.status as IntegrationDeliveryRecord['status'],
  attempts: Number(r.attempts),
  last_status_code: optNumber(r.last_status_code),
  last_duration_ms: optNumber(r.last_duration_ms),
  last_error: r.last_error ?? null,
  last_response_excerpt: r.last_response_excerpt ?? null,
  next_attempt_at: r.next_attempt_at ?? null,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const integrationDeliveryToRow = (d: Partial<IntegrationDeliveryRecord>): Partial<IntegrationDeliveryRow> => pick({ ...d });
