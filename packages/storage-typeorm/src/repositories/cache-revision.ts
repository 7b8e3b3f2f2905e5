import type { CacheRevisionRead, CacheRevisionRepository } from '@formloom/core';
import { CacheRevisionEntity } from '../tables/cache-revision';
import { FormEntity } from '../tables/forms';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

/** The revision row (bumped by triggers: migrations/1739500000000-cache-revision.ts) and response counts. */
const revisionSql = (d: Dialect, forms: number) => {
  const revision = `SELECT NULL AS id, value AS n FROM ${tableOf(d, CacheRevisionEntity)} WHERE id = 1`;
  if (!forms) return revision;
  const ids = Array.from({ length: forms }, (_, i) => d.p(i + 1)).join(', ');
  return `${revision} UNION ALL SELECT id, response_count AS n FROM ${tableOf(d, FormEntity)} WHERE id IN (${ids})`;
};

/** The statements of the usual reads (no form, or one): built once. */
const cacheRevisionStatements = (d: Dialect) => [revisionSql(d, 0), revisionSql(d, 1)];

export class SqlCacheRevisionRepository implements CacheRevisionRepository {
  constructor(private readonly scope: Scope) {}

  async read(formIds: readonly string[]): Promise<CacheRevisionRead> {
    const st = this.scope.statements(cacheRevisionStatements);
    const sql = st[formIds.length] ?? revisionSql(this.scope.d, formIds.length);
    const rows = await this.scope.db.all<{ id: string | null; n: number | string }>(sql, formIds);
    const out: CacheRevisionRead = { revision: -1, responseCounts: new Map() };
    for (const r of rows) {
      if (r.id === null) out.revision = Number(r.n);
      else out.responseCounts.set(r.id, Number(r.n));
    }
    if (out.revision < 0) throw new Error('The cache_revision row is missing: run the migrations');
    return out;
  }
}
