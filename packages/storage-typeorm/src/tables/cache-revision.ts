import { EntitySchema } from 'typeorm';
import { int } from './columns';

/* The cache revision (migration 1739500000000): one row, bumped by triggers. See repositories/cache-revision.ts. */

export interface CacheRevisionRow {
  id: number;
  value: number;
}

export const CacheRevisionEntity = new EntitySchema<CacheRevisionRow>({
  name: 'FormloomCacheRevision',
  tableName: 'cache_revision',
  columns: { id: { type: 'integer', primary: true }, value: int },
});
