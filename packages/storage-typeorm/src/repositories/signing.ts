import {
  type AuditEntryBuilder,
  FormloomError,
  type Page,
  type SignedDocumentRecord,
  type SigningAuditEntry,
  type SigningRepository,
  type SigningSessionRecord,
  type SigningSlotRecord,
  type StoredSessionStatus,
} from '@formloom/core';
import type { Scope } from '../scope';
import { type Dialect, Params } from '../sql/dialect';
import { insertIgnoring, insertMany, tableOf } from '../sql/statements';
import {
  type SignedDocumentRow,
  SignedDocumentEntity,
  type SigningAuditRow,
  SigningAuditEntity,
  type SigningSessionRow,
  SigningSessionEntity,
  type SigningSlotRow,
  SigningSlotEntity,
  auditFromRow,
  auditToRow,
  documentFromRow,
  documentToRow,
  sessionFromRow,
  sessionToRow,
  slotFromRow,
  slotToRow,
} from '../tables/signing';

const DOC_COLUMNS = 'id, session_id, question_id, question_title, kind, document_hash, generated_at';

export const signingStatements = (d: Dialect) => {
  const sessions = tableOf(d, SigningSessionEntity);
  const slots = tableOf(d, SigningSlotEntity);
  const docs = tableOf(d, SignedDocumentEntity);
  const audit = tableOf(d, SigningAuditEntity);
  return {
    sessions,
    slots,
    insertSession: insertIgnoring(d, SigningSessionEntity),
    insertDocument: insertIgnoring(d, SignedDocumentEntity),
    insertAudit: insertIgnoring(d, SigningAuditEntity),
    sessionById: `SELECT * FROM ${sessions} WHERE id = ${d.p(1)}`,
    markExpiry:
      `UPDATE ${sessions} SET expiry_notified_at = ${d.p(2)} WHERE id = ${d.p(1)} AND expiry_notified_at IS NULL`,
    expiredUnnotified:
      `SELECT * FROM ${sessions} WHERE status = 'active' AND expires_at <= ${d.p(1)} AND expiry_notified_at IS NULL ` +
      `ORDER BY expires_at, id LIMIT ${d.p(2)}`,
    completing: `SELECT * FROM ${sessions} WHERE status = 'completing' ORDER BY updated_at, id LIMIT ${d.p(1)}`,
    deleteSession: `DELETE FROM ${sessions} WHERE id = ${d.p(1)}`,
    statusesOfForm: `SELECT status FROM ${sessions} WHERE form_id = ${d.p(1)}`,
    slotsOf: `SELECT * FROM ${slots} WHERE session_id = ${d.p(1)} ORDER BY slot_number`,
    slotByCode: `SELECT * FROM ${slots} WHERE short_code = ${d.p(1)}`,
    docsOf: `SELECT ${DOC_COLUMNS} FROM ${docs} WHERE session_id = ${d.p(1)} ORDER BY generated_at, question_id, id`,
    docsOfKind:
      `SELECT ${DOC_COLUMNS} FROM ${docs} WHERE session_id = ${d.p(1)} AND kind = ${d.p(2)} ORDER BY generated_at, question_id, id`,
    docById: `SELECT * FROM ${docs} WHERE session_id = ${d.p(1)} AND id = ${d.p(2)}`,
    docByHash: `SELECT * FROM ${docs} WHERE document_hash = ${d.p(1)} ORDER BY id LIMIT 1`,
    auditHead: `SELECT seq, hash FROM ${audit} WHERE session_id = ${d.p(1)} ORDER BY seq DESC LIMIT 1`,
    auditOf: `SELECT * FROM ${audit} WHERE session_id = ${d.p(1)} ORDER BY seq`,
  };
};

export class SqlSigningRepository implements SigningRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(signingStatements);
  }

  async insertSession(session: SigningSessionRecord, slots: SigningSlotRecord[]): Promise<void> {
    const conflict = () => new FormloomError('CONFLICT', `Signing session ${session.id} or one of its short codes already exists`);
    await this.scope.atomic(async (db) => {
      const { sql, values } = this.st.insertSession;
      if ((await db.run(sql, values(sessionToRow(session)))) === 0) throw conflict();
      if (slots.length === 0) return;
      const insert = insertMany(this.scope.d, SigningSlotEntity, slots.map((s) => slotToRow(s)), 'ON CONFLICT DO NOTHING');
      // Thrown inside the transaction: the session row goes too.
      if ((await db.run(insert.sql, insert.values)) !== slots.length) throw conflict();
    });
  }

  async findSession(id: string): Promise<SigningSessionRecord | null> {
    const [row] = await this.scope.db.all<SigningSessionRow>(this.st.sessionById, [id]);
    return row ? sessionFromRow(row) : null;
  }

  async listSessions(formId: string, statuses: StoredSessionStatus[] | null, offset: number, limit: number): Promise<Page<SigningSessionRecord>> {
    const p = new Params(this.scope.d);
    let where = `form_id = ${p.bind(formId)}`;
    if (statuses) where += statuses.length ? ` AND status IN (${p.list(statuses)})` : ' AND 1 = 0';
    const countParams = [...p.values];
    const rows = await this.scope.db.all<SigningSessionRow>(
      `SELECT * FROM ${this.st.sessions} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${p.bind(Math.max(0, Math.floor(limit)))} OFFSET ${p.bind(Math.max(0, Math.floor(offset)))}`,
      p.values,
    );
    const [count] = await this.scope.db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${this.st.sessions} WHERE ${where}`, countParams);
    return { items: rows.map(sessionFromRow), total: Number(count.n) };
  }

  async transitionSession(
    id: string,
    from: StoredSessionStatus[],
    to: StoredSessionStatus,
    patch: Partial<Pick<SigningSessionRecord, 'voided_at' | 'void_reason' | 'completed_at' | 'updated_at'>> = {},
  ): Promise<boolean> {
    if (from.length === 0) return false;
    const p = new Params(this.scope.d);
    const set = [`status = ${p.bind(to)}`];
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) set.push(`"${k}" = ${p.bind(v)}`);
    const sql = `UPDATE ${this.st.sessions} SET ${set.join(', ')} WHERE id = ${p.bind(id)} AND status IN (${p.list(from)})`;
    return (await this.scope.db.run(sql, p.values)) === 1;
  }

  async markExpiryNotified(id: string, at: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.markExpiry, [id, at])) === 1;
  }

  async listExpiredUnnotified(now: string, limit: number): Promise<SigningSessionRecord[]> {
    return (await this.scope.db.all<SigningSessionRow>(this.st.expiredUnnotified, [now, limit])).map(sessionFromRow);
  }

  async listCompleting(limit: number): Promise<SigningSessionRecord[]> {
    return (await this.scope.db.all<SigningSessionRow>(this.st.completing, [limit])).map(sessionFromRow);
  }

  /**
   * On PostgreSQL every session of the form is locked (`FOR UPDATE`; a row another transaction holds is
   * read in its new version once that one ended) and counted here: a status filter in the locking query
   * would leave the other sessions unlocked. SQLite runs one transaction at a time, which holds them all.
   */
  async countSessionsOfForm(formId: string, statuses: StoredSessionStatus[]): Promise<number> {
    const lock = this.scope.d.kind === 'postgres' ? ' FOR UPDATE' : '';
    const rows = await this.scope.db.all<{ status: string }>(`${this.st.statusesOfForm}${lock}`, [formId]);
    return rows.filter((r) => (statuses as string[]).includes(r.status)).length;
  }

  async deleteSession(id: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deleteSession, [id])) === 1;
  }

  async listSlots(sessionId: string): Promise<SigningSlotRecord[]> {
    return (await this.scope.db.all<SigningSlotRow>(this.st.slotsOf, [sessionId])).map(slotFromRow);
  }

  async findSlotByCode(shortCode: string): Promise<SigningSlotRecord | null> {
    const [row] = await this.scope.db.all<SigningSlotRow>(this.st.slotByCode, [shortCode]);
    return row ? slotFromRow(row) : null;
  }

  async updateSlot(
    sessionId: string,
    slotNumber: number,
    from: SigningSlotRecord['status'][] | null,
    patch: Partial<Omit<SigningSlotRecord, 'session_id' | 'slot_number' | 'short_code'>>,
  ): Promise<boolean> {
    const { session_id: _s, slot_number: _n, short_code: _c, ...set } = slotToRow(patch);
    const columns = Object.keys(set) as (keyof typeof set)[];
    if (columns.length === 0 || (from && from.length === 0)) return false;
    const p = new Params(this.scope.d);
    const assignments = columns.map((c) => `"${c}" = ${p.bind(set[c])}`).join(', ');
    let sql = `UPDATE ${this.st.slots} SET ${assignments} WHERE session_id = ${p.bind(sessionId)} AND slot_number = ${p.bind(slotNumber)}`;
    if (from) sql += ` AND status IN (${p.list(from)})`;
    return (await this.scope.db.run(sql, p.values)) === 1;
  }

  async countSlotAttempt(sessionId: string, slotNumber: number, counter: 'code_attempts' | 'code_sends', max: number): Promise<boolean> {
    const column = counter === 'code_sends' ? 'code_sends' : 'code_attempts';
    const p = new Params(this.scope.d);
    const sql =
      `UPDATE ${this.st.slots} SET ${column} = ${column} + 1 ` +
      `WHERE session_id = ${p.bind(sessionId)} AND slot_number = ${p.bind(slotNumber)} AND ${column} < ${p.bind(max)}`;
    return (await this.scope.db.run(sql, p.values)) === 1;
  }

  async insertDocument(doc: SignedDocumentRecord): Promise<void> {
    const { sql, values } = this.st.insertDocument;
    if ((await this.scope.db.run(sql, values(documentToRow(doc)))) === 0) {
      throw new FormloomError('CONFLICT', `Signed document ${doc.id} (${doc.question_id}, ${doc.kind}) already exists`);
    }
  }

  async listDocuments(sessionId: string, kind?: SignedDocumentRecord['kind']): Promise<SignedDocumentRecord[]> {
    const rows = kind
      ? await this.scope.db.all<SignedDocumentRow>(this.st.docsOfKind, [sessionId, kind])
      : await this.scope.db.all<SignedDocumentRow>(this.st.docsOf, [sessionId]);
    return rows.map((r) => documentFromRow(r, false));
  }

  async findDocument(sessionId: string, id: string): Promise<SignedDocumentRecord | null> {
    const [row] = await this.scope.db.all<SignedDocumentRow>(this.st.docById, [sessionId, id]);
    return row ? documentFromRow(row, true) : null;
  }

  async findDocumentByHash(hash: string): Promise<SignedDocumentRecord | null> {
    const [row] = await this.scope.db.all<SignedDocumentRow>(this.st.docByHash, [hash]);
    return row ? documentFromRow(row, true) : null;
  }

  /**
   * Insert-or-nothing on the unique (session_id, seq): a concurrent appender that took the same seq makes
   * ours insert nothing, and we read the new head and build again (on PostgreSQL the conflicting insert
   * waits for the other transaction, so the re-read sees it).
   */
  async appendAudit(sessionId: string, build: AuditEntryBuilder): Promise<SigningAuditEntry> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const [head] = await this.scope.db.all<{ seq: number | string; hash: string }>(this.st.auditHead, [sessionId]);
      const entry = build(head ? { seq: Number(head.seq), hash: head.hash } : null);
      if (entry.session_id !== sessionId) throw new Error('An audit entry built for another session');
      const { sql, values } = this.st.insertAudit;
      if ((await this.scope.db.run(sql, values(auditToRow(entry)))) === 1) return entry;
    }
    throw new FormloomError('CONFLICT', `The audit trail of ${sessionId} is too busy`);
  }

  async listAudit(sessionId: string): Promise<SigningAuditEntry[]> {
    return (await this.scope.db.all<SigningAuditRow>(this.st.auditOf, [sessionId])).map(auditFromRow);
  }
}
