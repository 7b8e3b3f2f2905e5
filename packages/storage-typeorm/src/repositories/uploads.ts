import { FormloomError, type UploadRecord, type UploadRepository } from '@formloom/core';
import { UploadEntity, type UploadRow, uploadFromRow } from '../tables/uploads';
import type { Scope } from '../scope';
import { takeUploadsOf } from './respondent-data';
import { type Dialect, Params } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';

export const uploadStatements = (d: Dialect) => {
  const uploads = tableOf(d, UploadEntity);
  return {
    table: uploads,
    insert: insertIgnoring(d, UploadEntity),
    setSize: `UPDATE ${uploads} SET size = ${d.p(1)} WHERE id = ${d.p(2)}`,
    delete: `DELETE FROM ${uploads} WHERE id = ${d.p(1)}`,
    totalSize: `SELECT COALESCE(SUM(size), 0) AS n FROM ${uploads} WHERE form_id = ${d.p(1)}`,
    takeUnattached:
      `DELETE FROM ${uploads} WHERE response_id IS NULL AND id IN (` +
      `SELECT id FROM ${uploads} WHERE response_id IS NULL AND created_at < ${d.p(1)} ORDER BY created_at LIMIT ${d.p(2)}) RETURNING *`,
  };
};

export class SqlUploadRepository implements UploadRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(uploadStatements);
  }

  async insert(upload: UploadRecord): Promise<void> {
    const { sql, values } = this.st.insert;
    if ((await this.scope.db.run(sql, values(upload))) === 0) throw new FormloomError('CONFLICT', `Upload ${upload.id} already exists`);
  }

  async setSize(id: string, size: number): Promise<void> {
    await this.scope.db.run(this.st.setSize, [size, id]);
  }

  async delete(id: string): Promise<void> {
    await this.scope.db.run(this.st.delete, [id]);
  }

  takeByResponses(formId: string, responseIds: string[]): Promise<UploadRecord[]> {
    return takeUploadsOf(this.scope, formId, responseIds);
  }

  async totalSize(formId: string): Promise<number> {
    const [row] = await this.scope.db.all<{ n: number | string }>(this.st.totalSize, [formId]);
    return Number(row?.n ?? 0);
  }

  async attach(formId: string, keys: string[], responseId: string): Promise<number> {
    if (!keys.length) return 0;
    const { d, db } = this.scope;
    const st = this.st;
    const params = new Params(d);
    const sql =
      `UPDATE ${st.table} SET response_id = ${params.bind(responseId)} ` +
      `WHERE form_id = ${params.bind(formId)} AND response_id IS NULL AND "key" IN (${params.list([...new Set(keys)])})`;
    return db.run(sql, params.values);
  }

  async takeUnattached(before: string, limit: number): Promise<UploadRecord[]> {
    if (limit <= 0) return [];
    const rows = await this.scope.db.all<UploadRow>(this.st.takeUnattached, [before, Math.floor(limit)]);
    return rows.map(uploadFromRow);
  }
}
