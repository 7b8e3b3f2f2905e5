import type { SignedDocumentInput, SignedDocumentSigner, SignerEvent, VoidedDocumentInput } from '@formloom/core';
import type { DocumentFonts } from './fonts';
import { drawText, ensureSpace, formatTime, MUTED, rule } from './layout';

const LABEL_WIDTH = 110;
const MAIL_KINDS: Record<string, string> = {
  signing_request: 'Signing request',
  email_code: 'Verification code',
  void_notice: 'Void notice',
  signed_copy: 'Signed copy',
  notification_each_signature: 'Notification (a signature)',
  notification_all_complete: 'Notification (all signed)',
  notification_decline: 'Notification (declined)',
  notification_expiry: 'Notification (expired)',
};
const VERIFICATION_NAMES: Record<string, string> = {
  link: 'signing link',
  password: 'session password',
  email_code: 'email code',
};

/** What the certificate page shows besides the input itself. */
export interface CertificateFacts {
  /** `sha256:<hex>` of the unsigned rendering of the contract pages. */
  unsignedHash: string;
  /** Pages of the contract before the certificate page. */
  contractPages: number;
  voided: boolean;
  /** `sha256:<hex>` of the certificate a relying party trusts: the instance CA, or the top of the operator's chain. */
  trustFingerprint: string;
}

/** Where the visible seal goes: the widget's rectangle, drawn by the signature's own appearance. */
export interface SealBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const SEAL_HEIGHT = 62;

/**
 * The certificate of completion: the ids, the hash of the unsigned rendering, the audit chain's head, and per
 * signer how they were verified and what they did from where. Always starts on a page of its own.
 */
export function drawCertificatePage(
  doc: PDFKit.PDFDocument,
  fonts: DocumentFonts,
  input: SignedDocumentInput | VoidedDocumentInput,
  facts: CertificateFacts,
): SealBox {
  doc.addPage();
  const { voided } = facts;
  drawText(doc, fonts, voided ? 'Certificate of voided signing' : 'Certificate of completion', { size: 17, bold: true, after: 0.3 });
  drawText(doc, fonts, 'Electronic signature record, sealed with a digital signature over the whole document.', {
    size: 8.5,
    color: MUTED,
    after: 0.6,
  });
  rule(doc);
  const rows: Array<[string, string]> = [
    ['Document', input.question_title || 'Contract'],
    ['Session ID', input.session_id],
  ];
  if (input.form_id) rows.push(['Form ID', input.form_id]);
  const session = input.session;
  if (session) {
    rows.push(
      ['Form', `${session.form_title ?? '-'}  \u00b7  ${session.form_version_id ? `version ${session.form_version_id}` : 'draft'}`],
      ['Originator', session.created_by ?? '-'],
      ['Created', formatTime(session.created_at)],
      ['Expires', formatTime(session.expires_at)],
    );
  }
  rows.push(
    ['Question ID', input.question_id],
    ['Generated', formatTime(input.generated_at)],
    ['Contract pages', String(facts.contractPages)],
  );
  for (const [label, value] of rows.splice(0)) row(doc, fonts, label, value);
  // Hashes in a smaller size, so each stays on one line and can be copied whole.
  row(doc, fonts, 'Unsigned SHA-256', facts.unsignedHash, 7);
  // The head when this PDF was rendered: sealing and completing add entries after it (docs/signing.md).
  row(doc, fonts, 'Audit head at sealing', input.audit_head_hash, 7);
  row(doc, fonts, 'Seal CA SHA-256', facts.trustFingerprint, 7);
  if (voided) {
    const { voided_at, void_reason } = input as VoidedDocumentInput;
    rows.push(['Status', 'VOIDED'], ['Voided', formatTime(voided_at)], ['Voided by', session?.voided_by ?? '-'], ['Void reason', void_reason || '-']);
  } else {
    rows.push(['Status', completionStatus(input.signers)]);
  }
  for (const [label, value] of rows) row(doc, fonts, label, value);
  doc.moveDown(0.8);
  drawText(doc, fonts, 'Signers', { size: 13, bold: true, after: 0.3 });
  for (const signer of [...input.signers].sort((a, b) => a.slot_number - b.slot_number)) {
    drawSignerRecord(doc, fonts, signer);
  }
  if (session) {
    ensureSpace(doc, 60);
    doc.moveDown(0.6);
    drawText(doc, fonts, 'Emails sent', { size: 13, bold: true, after: 0.3 });
    if (session.emails.length === 0) drawText(doc, fonts, 'none', { size: 9 });
    for (const mail of session.emails) {
      ensureSpace(doc, 14);
      drawText(doc, fonts, `${formatTime(mail.at)}  \u00b7  ${MAIL_KINDS[mail.kind] ?? mail.kind} to ${mail.to}`, { size: 8.5, after: 0.15 });
    }
  }
  // The seal's widget: its appearance belongs to the signature, so the page only keeps the room free.
  ensureSpace(doc, SEAL_HEIGHT + 16);
  doc.moveDown(0.6);
  const box = { x: doc.page.margins.left, y: doc.y, width: Math.min(360, doc.page.width - doc.page.margins.left - doc.page.margins.right), height: SEAL_HEIGHT };
  doc.y += SEAL_HEIGHT;
  return box;
}

function completionStatus(signers: SignedDocumentSigner[]): string {
  const signed = signers.filter((signer) => signer.status === 'signed').length;
  return `${signed} of ${signers.length} signed`;
}

function drawSignerRecord(doc: PDFKit.PDFDocument, fonts: DocumentFonts, signer: SignedDocumentSigner): void {
  ensureSpace(doc, 110);
  rule(doc, '#dddddd');
  const name = [signer.first_name, signer.last_name].filter((part) => part && part.trim()).join(' ') || '-';
  drawText(doc, fonts, `Slot ${signer.slot_number}: ${signer.slot_label || 'Signer'}`, { bold: true, size: 10.5, after: 0.15 });
  row(doc, fonts, 'Name', name);
  row(doc, fonts, 'Email', signer.email || '-');
  row(doc, fonts, 'Status', signer.status);
  const methods = signer.verification_methods.length > 0 ? signer.verification_methods : ['link'];
  row(doc, fonts, 'Verified by', methods.map((method) => VERIFICATION_NAMES[method] ?? method).join(', '));
  event(doc, fonts, 'Viewed', signer.viewed);
  event(doc, fonts, 'Signed', signer.signed);
  if (signer.declined) {
    event(doc, fonts, 'Declined', signer.declined);
    if (signer.declined.reason) row(doc, fonts, 'Decline reason', signer.declined.reason);
  }
  if (signer.signature) row(doc, fonts, 'Signature', signer.signature.type === 'typed' ? 'typed' : 'drawn (image)');
  doc.moveDown(0.4);
}

function event(doc: PDFKit.PDFDocument, fonts: DocumentFonts, label: string, value: SignerEvent | null | undefined): void {
  if (!value) {
    row(doc, fonts, label, '-');
    return;
  }
  row(doc, fonts, label, `${formatTime(value.at)}  \u00b7  IP ${value.ip_address || '-'}`);
  if (value.user_agent) row(doc, fonts, '', value.user_agent, 7.5);
}

/** A label in the left column and its value, wrapping, in the right one. */
function row(doc: PDFKit.PDFDocument, fonts: DocumentFonts, label: string, value: string, valueSize = 9): void {
  ensureSpace(doc, 24);
  const left = doc.page.margins.left;
  const y = doc.y;
  if (label) drawText(doc, fonts, label, { x: left, width: LABEL_WIDTH - 8, size: 9, color: MUTED });
  const labelBottom = doc.y;
  doc.y = y + (label ? (9 - valueSize) * 0.8 : 0);
  // Values start at the column's left edge in either direction, as cells of the page's left-to-right table.
  drawText(doc, fonts, value, { x: left + LABEL_WIDTH, size: valueSize, align: 'left' });
  doc.y = Math.max(doc.y, labelBottom) + 1.5;
}
