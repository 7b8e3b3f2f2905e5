import type { SignatureInput } from '../ports/signed-documents';

/** What a signing session's audit trail records (docs/signing.md, "Audit trail"). */
export const SIGNING_AUDIT_ACTIONS = [
  'session_created',
  'document_viewed',
  'signed',
  'declined',
  'all_signed',
  'session_completed',
  'document_sealed',
  'session_voided',
  'session_expired',
  'signing_request_resent',
  'email_sent',
] as const;
export type SigningAuditAction = (typeof SIGNING_AUDIT_ACTIONS)[number];

/**
 * Signing sessions as stored (docs/signing.md). `completing` and `completed` both read `fully_signed` in
 * the API: `completing` means the last signature landed and the seal job has not finished yet.
 */
export type StoredSessionStatus = 'active' | 'completing' | 'completed' | 'declined' | 'voided';

export interface SigningSessionRecord {
  id: string;
  form_id: string;
  /** The user who created the session. */
  created_by: string;
  status: StoredSessionStatus;
  signing_order: 'sequential' | 'any';
  expires_at: string;
  hide_other_signers: boolean;
  copy_mode: 'ask' | 'always' | 'disabled';
  /** scrypt hash (`scrypt$<salt>$<hash>`), never the password. */
  password_hash: string | null;
  require_email_verification: boolean;
  notify_emails: string[];
  notify_events: string[];
  custom_email_body: string | null;
  created_at: string;
  updated_at: string;
  voided_at: string | null;
  void_reason: string | null;
  completed_at: string | null;
  /** Set once, by the one caller that sends the expiry notification. */
  expiry_notified_at: string | null;
}

export type SlotStatus = 'pending' | 'signed' | 'declined';

/** One signer slot of a session; its short code is the signer's link. */
export interface SigningSlotRecord {
  session_id: string;
  slot_number: number;
  slot_label: string;
  short_code: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  status: SlotStatus;
  signature: SignatureInput | null;
  send_copy: boolean;
  viewed_at: string | null;
  viewed_ip: string | null;
  viewed_user_agent: string | null;
  signed_at: string | null;
  signed_ip: string | null;
  signed_user_agent: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  /** The e-mailed verification code: its hash, expiry, failed tries and sends. */
  code_hash: string | null;
  code_expires_at: string | null;
  code_attempts: number;
  code_sends: number;
  email_verified_at: string | null;
  updated_at: string;
}

/** A sealed PDF of a session, stored byte for byte. */
export interface SignedDocumentRecord {
  id: string;
  session_id: string;
  question_id: string;
  question_title: string;
  /** `signed` for a completed session, `voided` for the watermarked copy of a voided one. */
  kind: 'signed' | 'voided';
  pdf: Uint8Array;
  document_hash: string;
  generated_at: string;
}

/** One entry of a session's append-only audit trail; `hash` chains it to the entry before (`prev_hash`). */
export interface SigningAuditEntry {
  id: string;
  session_id: string;
  /** 1, 2, 3, ... in the order entries were appended. */
  seq: number;
  action: string;
  timestamp: string;
  slot_number: number | null;
  actor_email: string | null;
  actor_name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  prev_hash: string | null;
  hash: string;
}
