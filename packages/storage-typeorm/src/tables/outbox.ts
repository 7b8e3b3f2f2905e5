import type { OutboxItem } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, int, fromJson, toJson, orNull } from './columns';

/* The durable outbox. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

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
