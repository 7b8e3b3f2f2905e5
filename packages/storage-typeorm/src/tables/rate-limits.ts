import type { RateLimitCounter } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, int, str } from './columns';

/* Rate-limit counters. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface RateLimitRow {
  bucket_key: string;
  hits: number;
  resets_at: string;
}

/** One fixed-window counter per key (a limit's name and its subject: key id, IP, form); see docs/security.md. */
export const RateLimitEntity = new EntitySchema<RateLimitRow>({
  name: 'FormloomRateLimit',
  tableName: 'rate_limits',
  columns: { bucket_key: id, hits: int, resets_at: str },
  indices: [{ name: 'IDX_rate_limits_resets_at', columns: ['resets_at'] }],
});

/** PostgreSQL may hand counts back as strings. */
export const rateLimitFromRow = (row: Pick<RateLimitRow, 'resets_at'> & { hits: number | string }): RateLimitCounter => ({
  hits: Number(row.hits),
  resets_at: row.resets_at,
});
