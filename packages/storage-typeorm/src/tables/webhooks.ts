import type { DeliveryAttempt, GlobalWebhook, WebhookDelivery } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, bool, int, optInt, toBool, orNull, optNumber, pick, type Bool } from './columns';
import type { FormRow } from './forms';

/* Global webhooks, signing secrets, form webhook deliveries and their attempts. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

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
  last_response_excerpt: string | null;
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
    last_response_excerpt: optText,
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
  response_excerpt: string | null;
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
    response_excerpt: optText,
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
  last_response_excerpt: r.last_response_excerpt ?? null,
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
    last_response_excerpt: d.last_response_excerpt,
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
  response_excerpt: r.response_excerpt ?? null,
  created_at: r.created_at,
});

export const attemptToRow = (a: DeliveryAttempt): DeliveryAttemptRow => ({
  id: a.id,
  delivery_id: a.delivery_id,
  attempt: a.attempt,
  status_code: orNull(a.status_code),
  duration_ms: a.duration_ms,
  error: orNull(a.error),
  response_excerpt: orNull(a.response_excerpt),
  created_at: a.created_at,
});
