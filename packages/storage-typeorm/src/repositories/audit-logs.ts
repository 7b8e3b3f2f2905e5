import { type AuditEvent, type AuditLogRepository, type AuditQuery, FormloomError, type Page } from '@formloom/core';
import { type AuditLogRow, AuditLogEntity, auditFromRow, auditToRow } from '../tables/audit-logs';
import type { Scope } from '../scope';
import { type Dialect, Params } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';

export const auditLogStatements = (d: Dialect) => ({
  table: tableOf(d, AuditLogEntity),
  insert: insertIgnoring(d, AuditLogEntity),
});

export class SqlAuditLogRepository implements AuditLogRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(auditLogStatements);
  }

  async insert(event: AuditEvent): Promise<void> {
    const { sql, values } = this.st.insert;
    if ((await this.scope.db.run(sql, values(auditToRow(event)))) === 0) {
      throw new FormloomError('CONFLICT', `Audit event ${event.id} already exists`);
    }
  }

  /**
   * The page and the total, two queries run together. `"timestamp"` is quoted: a type name in PostgreSQL.
   * The window and order are a range on IDX_audit_logs_team_timestamp (team_id, timestamp, id).
   */
  async list(query: AuditQuery): Promise<Page<AuditEvent>> {
    const { db, d } = this.scope;
    const st = this.st;
    const params = new Params(d);
    const bind = params.bind;
    let where = `team_id = ${bind(query.teamId)}`;
    if (query.action !== undefined) where += ` AND action = ${bind(query.action)}`;
    if (query.userId !== undefined) where += ` AND user_id = ${bind(query.userId)}`;
    if (query.since !== undefined) where += ` AND "timestamp" >= ${bind(query.since)}`;
    if (query.until !== undefined) where += ` AND "timestamp" <= ${bind(query.until)}`;
    const filter = `FROM ${st.table} WHERE ${where}`;
    const filterValues = [...params.values];
    const page =
      `SELECT * ${filter} ORDER BY "timestamp" DESC, id DESC ` +
      `LIMIT ${bind(Math.max(0, Math.floor(query.limit)))} OFFSET ${bind(Math.max(0, Math.floor(query.offset)))}`;
    const [rows, [count]] = await Promise.all([
      db.all<AuditLogRow>(page, params.values),
      db.all<{ n: number | string }>(`SELECT COUNT(*) AS n ${filter}`, filterValues),
    ]);
    return { items: rows.map(auditFromRow), total: Number(count.n) };
  }
}
