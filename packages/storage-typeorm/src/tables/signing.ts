import type { SignedDocumentRecord, SigningAuditEntry, SigningSessionRecord, SigningSlotRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, bool, int, optInt, toBool, fromJson, toJson, optNumber, pick, type Bool } from './columns';
import type { FormRow } from './forms';

/* Signing sessions, their signer slots, sealed documents (base64 text) and audit chain. See columns.ts. */

export interface SigningSessionRow {
  id: string;
  form_id: string;
  created_by: string;
  status: string;
  signing_order: string;
  expires_at: string;
  hide_other_signers: Bool;
  copy_mode: string;
  password_hash: string | null;
  require_email_verification: Bool;
  notify_emails: string;
  notify_events: string;
  custom_email_body: string | null;
  created_at: string;
  updated_at: string;
  voided_at: string | null;
  void_reason: string | null;
  completed_at: string | null;
  expiry_notified_at: string | null;
}

export const SigningSessionEntity = new EntitySchema<SigningSessionRow & { form?: FormRow }>({
  name: 'FormloomSigningSession',
  tableName: 'signing_sessions',
  columns: {
    id,
    form_id: str,
    created_by: str,
    status: str,
    signing_order: str,
    expires_at: str,
    hide_other_signers: bool,
    copy_mode: str,
    password_hash: optText,
    require_email_verification: bool,
    notify_emails: text,
    notify_events: text,
    custom_email_body: optText,
    created_at: str,
    updated_at: str,
    voided_at: optStr,
    void_reason: optText,
    completed_at: optStr,
    expiry_notified_at: optStr,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_signing_sessions_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    { name: 'IDX_signing_sessions_form_created', columns: ['form_id', 'created_at'] },
    { name: 'IDX_signing_sessions_status_expires', columns: ['status', 'expires_at'] },
  ],
});

export interface SigningSlotRow {
  session_id: string;
  slot_number: number;
  slot_label: string;
  short_code: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  status: string;
  signature: string | null;
  send_copy: Bool;
  viewed_at: string | null;
  viewed_ip: string | null;
  viewed_user_agent: string | null;
  signed_at: string | null;
  signed_ip: string | null;
  signed_user_agent: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  code_hash: string | null;
  code_expires_at: string | null;
  code_attempts: number;
  code_sends: number;
  email_verified_at: string | null;
  updated_at: string;
}

const sessionRelation = (table: string) => ({
  session: {
    type: 'many-to-one' as const,
    target: 'FormloomSigningSession',
    joinColumn: { name: 'session_id', foreignKeyConstraintName: `FK_${table}_session_id` },
    onDelete: 'CASCADE' as const,
  },
});

export const SigningSlotEntity = new EntitySchema<SigningSlotRow & { session?: SigningSessionRow }>({
  name: 'FormloomSigningSlot',
  tableName: 'signing_slots',
  columns: {
    session_id: { type: 'varchar', primary: true },
    slot_number: { type: 'integer', primary: true },
    slot_label: text,
    short_code: str,
    first_name: optText,
    last_name: optText,
    email: optText,
    status: str,
    signature: optText,
    send_copy: bool,
    viewed_at: optStr,
    viewed_ip: optStr,
    viewed_user_agent: optText,
    signed_at: optStr,
    signed_ip: optStr,
    signed_user_agent: optText,
    declined_at: optStr,
    decline_reason: optText,
    code_hash: optStr,
    code_expires_at: optStr,
    code_attempts: int,
    code_sends: int,
    email_verified_at: optStr,
    updated_at: str,
  },
  relations: sessionRelation('signing_slots'),
  indices: [{ name: 'UQ_signing_slots_short_code', columns: ['short_code'], unique: true }],
});

export interface SignedDocumentRow {
  id: string;
  session_id: string;
  question_id: string;
  question_title: string;
  kind: string;
  pdf_base64: string;
  document_hash: string;
  generated_at: string;
}

export const SignedDocumentEntity = new EntitySchema<SignedDocumentRow & { session?: SigningSessionRow }>({
  name: 'FormloomSignedDocument',
  tableName: 'signed_documents',
  columns: {
    id,
    session_id: str,
    question_id: str,
    question_title: text,
    kind: str,
    pdf_base64: text,
    document_hash: str,
    generated_at: str,
  },
  relations: sessionRelation('signed_documents'),
  indices: [
    { name: 'UQ_signed_documents_session_question_kind', columns: ['session_id', 'question_id', 'kind'], unique: true },
    { name: 'IDX_signed_documents_hash', columns: ['document_hash'] },
  ],
});

export interface SigningAuditRow {
  id: string;
  session_id: string;
  seq: number;
  action: string;
  timestamp: string;
  slot_number: number | null;
  actor_email: string | null;
  actor_name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: string;
  prev_hash: string | null;
  hash: string;
}

export const SigningAuditEntity = new EntitySchema<SigningAuditRow & { session?: SigningSessionRow }>({
  name: 'FormloomSigningAudit',
  tableName: 'signing_audit_entries',
  columns: {
    id,
    session_id: str,
    seq: int,
    action: str,
    timestamp: str,
    slot_number: optInt,
    actor_email: optText,
    actor_name: optText,
    ip_address: optStr,
    user_agent: optText,
    details: text,
    prev_hash: optStr,
    hash: str,
  },
  relations: sessionRelation('signing_audit_entries'),
  indices: [{ name: 'UQ_signing_audit_entries_session_seq', columns: ['session_id', 'seq'], unique: true }],
});

export const sessionFromRow = (r: SigningSessionRow): SigningSessionRecord => ({
  id: r.id,
  form_id: r.form_id,
  created_by: r.created_by,
  status: r.status as SigningSessionRecord['status'],
  signing_order: r.signing_order as SigningSessionRecord['signing_order'],
  expires_at: r.expires_at,
  hide_other_signers: toBool(r.hide_other_signers),
  copy_mode: r.copy_mode as SigningSessionRecord['copy_mode'],
  password_hash: r.password_hash,
  require_email_verification: toBool(r.require_email_verification),
  notify_emails: fromJson(r.notify_emails, []),
  notify_events: fromJson(r.notify_events, []),
  custom_email_body: r.custom_email_body,
  created_at: r.created_at,
  updated_at: r.updated_at,
  voided_at: r.voided_at,
  void_reason: r.void_reason,
  completed_at: r.completed_at,
  expiry_notified_at: r.expiry_notified_at,
});

export const sessionToRow = (s: SigningSessionRecord): SigningSessionRow => ({
  ...s,
  notify_emails: toJson(s.notify_emails, []),
  notify_events: toJson(s.notify_events, []),
});

export const slotFromRow = (r: SigningSlotRow): SigningSlotRecord => ({
  ...r,
  slot_number: Number(r.slot_number),
  status: r.status as SigningSlotRecord['status'],
  signature: fromJson(r.signature, null),
  send_copy: toBool(r.send_copy),
  code_attempts: Number(r.code_attempts),
  code_sends: Number(r.code_sends),
});

/** Whole record or patch: only the fields present. */
export const slotToRow = (s: Partial<SigningSlotRecord>): Partial<SigningSlotRow> =>
  pick({ ...s, signature: s.signature === undefined ? undefined : s.signature === null ? null : JSON.stringify(s.signature) }) as Partial<SigningSlotRow>;

export const documentFromRow = (r: SignedDocumentRow, withBytes: boolean): SignedDocumentRecord => ({
  id: r.id,
  session_id: r.session_id,
  question_id: r.question_id,
  question_title: r.question_title,
  kind: r.kind as SignedDocumentRecord['kind'],
  pdf: withBytes ? new Uint8Array(Buffer.from(r.pdf_base64, 'base64')) : new Uint8Array(0),
  document_hash: r.document_hash,
  generated_at: r.generated_at,
});

export const documentToRow = (d: SignedDocumentRecord): SignedDocumentRow => ({
  id: d.id,
  session_id: d.session_id,
  question_id: d.question_id,
  question_title: d.question_title,
  kind: d.kind,
  pdf_base64: Buffer.from(d.pdf).toString('base64'),
  document_hash: d.document_hash,
  generated_at: d.generated_at,
});

export const auditFromRow = (r: SigningAuditRow): SigningAuditEntry => ({
  ...r,
  seq: Number(r.seq),
  slot_number: optNumber(r.slot_number),
  details: fromJson(r.details, {}),
});

export const auditToRow = (e: SigningAuditEntry): SigningAuditRow => ({ ...e, details: toJson(e.details, {}) });
