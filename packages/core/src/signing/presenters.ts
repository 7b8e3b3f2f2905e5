import type { SignedDocumentRecord, SigningAuditAction, SigningAuditEntry, SigningSessionRecord, SigningSlotRecord, StoredSessionStatus } from '../domain/signing';
import type { z } from 'zod';
import type { PublicSessionStatus } from './schemas';
import type { signedDocumentOut, signerLinkOut, signingAuditEntryOut, signingSessionOut } from './output-schemas';

/** The API status: the last signature's `completing` already reads `fully_signed`; past `expires_at`, `expired`. */
export function publicStatus(s: Pick<SigningSessionRecord, 'status' | 'expires_at'>, now: Date): PublicSessionStatus {
  if (s.status === 'completing' || s.status === 'completed') return 'fully_signed';
  if (s.status === 'active' && Date.parse(s.expires_at) <= now.getTime()) return 'expired';
  return s.status;
}

/** Stored statuses a public status filter matches (expiry is decided by the clock, see `publicStatus`). */
export function storedStatusesFor(status: PublicSessionStatus): StoredSessionStatus[] {
  if (status === 'fully_signed') return ['completing', 'completed'];
  if (status === 'expired') return ['active'];
  return [status];
}

export const signingUrl = (publicUrl: string, code: string) => `${publicUrl.replace(/\/+$/, '')}/s/${code}`;

export function presentSlot(slot: SigningSlotRecord, publicUrl: string): z.infer<typeof signerLinkOut> {
  return {
    slot_number: slot.slot_number,
    slot_label: slot.slot_label,
    short_code: slot.short_code,
    signing_url: signingUrl(publicUrl, slot.short_code),
    first_name: slot.first_name,
    last_name: slot.last_name,
    email: slot.email,
    status: slot.status,
    viewed_at: slot.viewed_at,
    signed_at: slot.signed_at,
    declined_at: slot.declined_at,
    ...(slot.status === 'declined' ? { decline_reason: slot.decline_reason } : {}),
  };
}

export function presentSession(s: SigningSessionRecord, slots: SigningSlotRecord[], now: Date, publicUrl: string): z.infer<typeof signingSessionOut> {
  return {
    id: s.id,
    form_id: s.form_id,
    status: publicStatus(s, now),
    signing_order: s.signing_order,
    total_slots: slots.length,
    total_signed: slots.filter((x) => x.status === 'signed').length,
    expires_at: s.expires_at,
    hide_other_signers: s.hide_other_signers,
    copy_mode: s.copy_mode,
    signer_links: slots.map((x) => presentSlot(x, publicUrl)),
    created_at: s.created_at,
    ...(s.voided_at ? { voided_at: s.voided_at, void_reason: s.void_reason } : {}),
  };
}

/** List items carry exactly the documented fields. */
export function presentListItem(s: SigningSessionRecord, slots: SigningSlotRecord[], now: Date) {
  return {
    id: s.id,
    status: publicStatus(s, now),
    total_slots: slots.length,
    total_signed: slots.filter((x) => x.status === 'signed').length,
    signing_order: s.signing_order,
    expires_at: s.expires_at,
    created_at: s.created_at,
  };
}

/** `document_url` is absolute, like `signing_url`: `publicUrl` + the API's mount (`baseUrl`) + the download path. */
export function presentDocument(d: SignedDocumentRecord, publicUrl: string, baseUrl: string): z.infer<typeof signedDocumentOut> {
  return {
    id: d.id,
    question_id: d.question_id,
    question_title: d.question_title,
    document_url: `${publicUrl.replace(/\/+$/, '')}${baseUrl}/signing-sessions/${d.session_id}/documents/${d.id}`,
    document_hash: d.document_hash,
    generated_at: d.generated_at,
  };
}

/**
 * Every field that goes into the entry's hash, and the hash: recomputing the chain needs nothing else
 * (docs/signing.md, "The audit chain's canonical form").
 */
export function presentAuditEntry(e: SigningAuditEntry): z.infer<typeof signingAuditEntryOut> {
  return {
    id: e.id,
    session_id: e.session_id,
    seq: e.seq,
    action: e.action as SigningAuditAction,
    timestamp: e.timestamp,
    slot_number: e.slot_number,
    actor_email: e.actor_email,
    actor_name: e.actor_name,
    ip_address: e.ip_address,
    user_agent: e.user_agent,
    details: e.details,
    prev_hash: e.prev_hash,
    hash: e.hash,
  };
}
