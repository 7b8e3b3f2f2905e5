import { FormloomError, type UploadRecord, type UploadRepository } from '@formloom/core';
import { UploadEntity, type UploadRow } from '../entities';
import type { Scope } from '../scope';
import { type Dialect, Params } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';

export const uploadStatements = (d: Dialect) => {
  const uploads = tableOf(d, UploadEntity);
  return {
    table: uploads,
    insert: insertIgnoring(d, UploadEntity),
    delete: `DELETE FROM ${uploads} WHERE id = ${d.p(1)}`,
    totalSize: `SELECT COALESCE(SUM(size), 0) AS n FROM ${uploads} WHERE form_id = ${d.p(1)}`,
    takeUnattached:
      `DELETE FROM ${uploads} WHERE response_id IS NULL AND id IN (` +
      `SELECT id FROM ${uploads} WHERE response_id IS NULL AND created_at < ${d.p(1)} ORDER BY created_at LIMIT ${d.p(2)}) RETURNING *`,
  };
};

const fromRow = (r: UploadRow): UploadRecord => ({
  id: r.id,
  form_id: r.form_id,
  question_id: r.question_id,
  key: r.key,
  size: Number(r.size),
  response_id: r.response_id ?? null,
  created_at: r.created_at,
});

export class SqlUploadRepository implements UploadRepository {
  constructor(private readonly scope: Scope) {}

  async insert(upload: UploadRecord): Promise<void> {
    const { sql, values } = this.scope.st.uploads.insert;
    if ((await this.scope.db.run(sql, values(upload))) === 0) throw new FormloomError('CONFLICT', `Upload ${upload.id} already exists`);
  }

  async delete(id: string): Promise<void> {
    await this.scope.db.run(this.scope.st.uploads.delete, [id]);
  }

  async totalSize(formId: string): Promise<number> {
    const [row] = await this.scope.db.all<{ n: number | string }>(this.scope.st.uploads.totalSize, [formId]);
    return Number(row?.n ?? 0);
  }

  async attach(formId: string, keys: string[], responseId: string): Promise<number> {
    if (!keys.length) return 0;
    const { d, db, st } = this.scope;
    const params = new Params(d);
    const sql =
      `UPDATE ${st.uploads.table} SET response_id = ${params.bind(responseId)} ` +
      `WHERE form_id = ${params.bind(formId)} AND response_id IS NULL AND "key" IN (${params.list([...new Set(keys)])})`;
    return db.run(sql, params.values);
  }

  async takeUnattached(before: string, limit: number): Promise<UploadRecord[]> {
    if (limit <= 0) return [];
    const rows = await this.scope.db.all<UploadRow>(this.scope.st.uploads.takeUnattached, [before, Math.floor(limit)]);
    return rows.map(fromRow);
  }
}
