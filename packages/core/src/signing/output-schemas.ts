import { z } from 'zod';
import { int, named, pageOf, timestamp } from '../api-schemas';
import { PUBLIC_STATUSES, verifyPdfSchema } from './schemas';
import { SIGNING_AUDIT_ACTIONS } from '../domain/signing';

/** What the signing presenters (presenters.ts) and services answer. */

const sessionStatus = z.enum(PUBLIC_STATUSES);
const slotStatus = z.enum(['pending', 'signed', 'declined']);
const signingOrder = z.enum(['sequential', 'any']);
const nullableText = z.string().nullable();

export const signerLinkOut = named(
  'SignerLink',
  z.object({
    slot_number: int,
    slot_label: z.string(),
    short_code: z.string(),
    signing_url: z.string(),
    first_name: nullableText,
    last_name: nullableText,
    email: nullableText,
    status: slotStatus,
    viewed_at: timestamp.nullable(),
    signed_at: timestamp.nullable(),
    declined_at: timestamp.nullable(),
    decline_reason: nullableText.optional().describe('The reason the signer gave, on a declined link (null when none was given)'),
  }),
);

export const signingSessionOut = named(
  'SigningSession',
  z.object({
    id: z.string(),
    form_id: z.string(),
    status: sessionStatus,
    signing_order: signingOrder,
    total_slots: int,
    total_signed: int,
    expires_at: timestamp,
    hide_other_signers: z.boolean(),
    copy_mode: z.enum(['ask', 'always', 'disabled']),
    signer_links: z.array(signerLinkOut),
    created_at: timestamp,
    voided_at: timestamp.optional(),
    void_reason: nullableText.optional(),
  }),
);

export const signingSessionListOut = named(
  'SigningSessionList',
  pageOf(
    'sessions',
    z.object({
      id: z.string(),
      status: sessionStatus,
      total_slots: int,
      total_signed: int,
      signing_order: signingOrder,
      expires_at: timestamp,
      created_at: timestamp,
    }),
  ),
);

export const voidedSessionOut = named('VoidedSigningSession', z.object({ id: z.string(), status: z.literal('voided'), voided_at: timestamp, void_reason: z.string() }));

export const resentOut = named('SigningRequestResent', z.object({ success: z.literal(true), sent_to: z.string(), slot_number: int }));

export const signedDocumentOut = named(
  'SignedDocument',
  z.object({
    id: z.string(),
    question_id: z.string(),
    question_title: z.string(),
    document_url: z.string(),
    document_hash: z.string().describe('sha256:<hex> of the PDF'),
    generated_at: timestamp,
  }),
);

export const signedDocumentListOut = named('SignedDocumentList', z.object({ documents: z.array(signedDocumentOut) }));

export const signingAuditEntryOut = named(
  'SigningAuditEntry',
  z.object({
    id: z.string(),
    session_id: z.string(),
    seq: int,
    action: z.enum(SIGNING_AUDIT_ACTIONS),
    timestamp,
    slot_number: int.nullable(),
    actor_email: nullableText,
    actor_name: nullableText,
    ip_address: nullableText,
    user_agent: nullableText,
    details: z.record(z.string(), z.unknown()).describe('What the action recorded (a decline or void reason, a sealed document\'s hash, ...)'),
    prev_hash: nullableText,
    hash: z.string().describe('SHA-256 hex of the canonical JSON of every other field, followed by prev_hash (docs/signing.md)'),
  }),
);

export const signingAuditOut = named('SigningAuditTrail', z.object({ entries: z.array(signingAuditEntryOut) }));

/** The signer's endpoints (signer-service.ts). */
export const signerContextOut = named(
  'SignerContext',
  z.object({
    form_id: z.string(),
    session_id: z.string(),
    slot_number: int,
    slot_label: z.string(),
    status: sessionStatus,
    requires_password: z.boolean(),
    requires_email_verification: z.boolean(),
    signing_order: signingOrder,
    is_turn: z.boolean(),
    slot_status: slotStatus.describe('This link\'s own state'),
    copy_mode: z.enum(['ask', 'always', 'disabled']),
    documents: z
      .array(z.object({ id: z.string(), question_id: z.string(), question_title: z.string() }))
      .describe('The sealed copies this signer may download (once the session is completed, unless copy_mode is disabled)'),
    still_to_sign: z
      .array(z.object({ slot_number: int, slot_label: z.string() }))
      .describe('The roles (slot labels) that have not signed yet, in slot order'),
  }),
);

export const accessTokenOut = named('SignerAccessToken', z.object({ success: z.literal(true), access_token: z.string().describe('Send as X-Access-Token') }));

/** The documented 401 of a wrong password: `{error: "Wrong password"}`. */
export const wrongPasswordOut = z.object({ error: z.string() });

export const signerDocumentOut = named(
  'SignerDocument',
  z.object({
    session_id: z.string(),
    slot_number: int,
    contracts: z.array(z.object({ question_id: z.string(), title: z.string(), document: z.string() })),
    signers: z.array(z.object({ slot_number: int, slot_label: z.string(), first_name: nullableText, last_name: nullableText, status: slotStatus })),
  }),
);

export const codeSentOut = named('VerificationCodeSent', z.object({ success: z.literal(true), sent_to: z.string() }));

export const signedOut = named('SignResult', z.object({ slot_number: int, status: z.literal('signed'), session_status: sessionStatus }));

export const declinedOut = named('DeclineResult', z.object({ slot_number: int, status: z.literal('declined'), session_status: z.literal('declined') }));

export const verificationOut = named(
  'SignedPdfVerification',
  z.object({
    valid: z.boolean().describe('The one answer that matters; the other fields say why'),
    sealed_by_this_instance: z.boolean(),
    signature_valid: z.boolean(),
    intact: z.boolean(),
    covers_whole_document: z.boolean(),
    document_hash: z.string(),
    known_document: z.boolean(),
    session_id: nullableText,
    document_id: nullableText,
    question_id: nullableText,
    kind: z.enum(['signed', 'voided']).nullable(),
    audit_chain_intact: z.boolean().nullable(),
    signed_at: nullableText,
    certificate: z
      .object({ fingerprint: z.string(), subject: z.string(), issuer: z.string(), not_before: z.string(), not_after: z.string() })
      .nullable(),
    problems: z.array(z.string()),
  }),
);

/** Bodies POST /signing/verify reads itself: the PDF as is, or JSON with the PDF in base64. */
export const verifyBodies = {
  'application/pdf': z
    .file()
    .mime('application/pdf')
    .describe("The PDF as sent: at most 20 MiB (413 past it), not empty, with `%PDF-` in its first 1,024 bytes (else 400, reason `not_a_pdf`); anything else (no signature, a damaged file) is reported in the answer's `problems`, not refused"),
  'application/json': verifyPdfSchema,
};
