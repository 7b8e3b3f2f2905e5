import type { IdempotencyRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optText, fromJson } from './columns';

/* Idempotency keys. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface IdempotencyRow {
  key: string;
  owner: string;
  status: string;
  result: string | null;
  created_at: string;
  expires_at: string;
}

export const IdempotencyEntity = new EntitySchema<IdempotencyRow>({
  name: 'FormloomIdempotencyKey',
  tableName: 'idempotency_keys',
  columns: { key: id, owner: str, status: str, result: optText, created_at: str, expires_at: str },
  // The housekeeping's purge of expired keys (migration 1742500000000).
  indices: [{ name: 'IDX_idempotency_keys_expires_at', columns: ['expires_at'] }],
});

export const idempotencyFromRow = (r: IdempotencyRow): IdempotencyRecord => ({
  key: r.key,
  owner: r.owner,
  status: r.status as IdempotencyRecord['status'],
  result: r.result == null ? null : fromJson(r.result, {}),
  created_at: r.created_at,
  expires_at: r.expires_at,
});
