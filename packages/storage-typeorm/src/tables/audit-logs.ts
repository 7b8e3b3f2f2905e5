import type { AuditEvent } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, fromJson, toJson, orNull } from './columns';

/* The team audit log. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface AuditLogRow {
  id: string;
  team_id: string;
  action: string;
  user_id: string | null;
  user_email: string | null;
  details: string;
  ip_address: string | null;
  timestamp: string;
}

/**
 * Audit events. `team_id` is deliberately no foreign key: the events of a deleted team stay (the last one
 * records the deletion) and never block it. `timestamp` is quoted in SQL (a PostgreSQL keyword).
 */
export const AuditLogEntity = new EntitySchema<AuditLogRow>({
  name: 'FormloomAuditLog',
  tableName: 'audit_logs',
  columns: {
    id,
    team_id: str,
    action: str,
    user_id: optStr,
    user_email: optStr,
    details: text,
    ip_address: optStr,
    timestamp: str,
  },
  indices: [
    // The listing, newest first, with its since/until window and the id tie-break.
    { name: 'IDX_audit_logs_team_timestamp', columns: ['team_id', 'timestamp', 'id'] },
    { name: 'IDX_audit_logs_team_action', columns: ['team_id', 'action'] },
  ],
});

export const auditFromRow = (r: AuditLogRow): AuditEvent => ({
  id: r.id,
  team_id: r.team_id,
  action: r.action,
  user_id: r.user_id,
  user_email: r.user_email,
  details: fromJson(r.details, {}),
  ip_address: r.ip_address,
  timestamp: r.timestamp,
});

export const auditToRow = (e: AuditEvent): AuditLogRow => ({
  id: e.id,
  team_id: e.team_id,
  action: e.action,
  user_id: orNull(e.user_id),
  user_email: orNull(e.user_email),
  details: toJson(e.details, {}),
  ip_address: orNull(e.ip_address),
  timestamp: e.timestamp,
});
