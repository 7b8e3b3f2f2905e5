import type { IdempotencyRecord, IdempotencyRepository } from '@formloom/core';
import { type IdempotencyRow, IdempotencyEntity, idempotencyFromRow } from '../tables/idempotency';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

export const idempotencyStatements = (d: Dialect) => {
  const keys = tableOf(d, IdempotencyEntity);
  return {
    /**
     * Insert on the primary key; a conflicting row is taken over only when it has expired. A losing
     * claim changes no row, so it needs no error handling (an error would abort a PostgreSQL
     * transaction the caller may be in).
     */
    claim:
      `INSERT INTO ${keys} AS ik ("key", owner, status, result, created_at, expires_at) ` +
      `VALUES (${d.p(1)}, ${d.p(2)}, 'in_progress', NULL, ${d.p(3)}, ${d.p(4)}) ` +
      `ON CONFLICT ("key") DO UPDATE SET owner = excluded.owner, status = excluded.status, result = NULL, ` +
      `created_at = excluded.created_at, expires_at = excluded.expires_at WHERE ik.expires_at <= ${d.p(5)}`,
    complete: `UPDATE ${keys} SET status = 'done', result = ${d.p(1)} WHERE "key" = ${d.p(2)}`,
    release: `DELETE FROM ${keys} WHERE "key" = ${d.p(1)}`,
    find: `SELECT * FROM ${keys} WHERE "key" = ${d.p(1)}`,
    // Read from IDX_idempotency_keys_expires_at, so each batch touches only the rows it deletes.
    purgeExpired:
      `DELETE FROM ${keys} WHERE "key" IN ` +
      `(SELECT "key" FROM ${keys} WHERE expires_at <= ${d.p(1)} ORDER BY expires_at LIMIT ${d.p(2)})`,
  };
};

export class SqlIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(idempotencyStatements);
  }

  async claim(record: Omit<IdempotencyRecord, 'status' | 'result'>, now: string): Promise<boolean> {
    const params = [record.key, record.owner, record.created_at, record.expires_at, now];
    return (await this.scope.db.run(this.st.claim, params)) > 0;
  }

  async complete(key: string, result: Record<string, unknown>): Promise<void> {
    await this.scope.db.run(this.st.complete, [JSON.stringify(result), key]);
  }

  async release(key: string): Promise<void> {
    await this.scope.db.run(this.st.release, [key]);
  }

  async find(key: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.scope.db.all<IdempotencyRow>(this.st.find, [key]);
    return row ? idempotencyFromRow(row) : null;
  }

  async purgeExpired(query: { before: string; limit: number }): Promise<number> {
    if (query.limit <= 0) return 0;
    return this.scope.db.run(this.st.purgeExpired, [query.before, Math.floor(query.limit)]);
  }
}
