import type { SigningSessionRecord, SigningSlotRecord } from '../domain/signing';
import type { MailMessage } from '../ports/mailer';
import { signingUrl } from './presenters';

/* The mails of a signing session (docs/signing.md, "Emails"). Plain text: names and links only. */

const fullName = (s: Pick<SigningSlotRecord, 'first_name' | 'last_name'>) => [s.first_name, s.last_name].filter(Boolean).join(' ');

/** `custom_email_body` with its variables filled in; unknown `{...}` stay as written. */
export function fillTemplate(template: string, slot: SigningSlotRecord, link: string, expiryDate: string): string {
  const vars: Record<string, string> = {
    slot_firstName: slot.first_name ?? '',
    slot_lastName: slot.last_name ?? '',
    slot_link: link,
    expiryDate,
  };
  return template.replace(/\{(slot_firstName|slot_lastName|slot_link|expiryDate)\}/g, (_, k: string) => vars[k]);
}

export function signingRequestMail(session: SigningSessionRecord, slot: SigningSlotRecord, formTitle: string, publicUrl: string): MailMessage {
  const link = signingUrl(publicUrl, slot.short_code);
  const expiryDate = session.expires_at.slice(0, 10);
  const text = session.custom_email_body
    ? fillTemplate(session.custom_email_body, slot, link, expiryDate)
    : `Hello ${fullName(slot) || 'there'},\n\nYou are asked to sign "${formTitle}" as ${slot.slot_label}.\n\n` +
      `Open this link to read and sign: ${link}\n\nThe link is valid until ${expiryDate}.\n`;
  return { to: slot.email!, subject: `Please sign: ${formTitle}`, text };
}

export function notificationMail(to: string, event: string, formTitle: string, sessionId: string, detail: string): MailMessage {
  const subjects: Record<string, string> = {
    each_signature: `A signature was added: ${formTitle}`,
    all_complete: `All parties signed: ${formTitle}`,
    decline: `A signer declined: ${formTitle}`,
    expiry: `Signing session expired: ${formTitle}`,
  };
  return { to, subject: subjects[event] ?? formTitle, text: `${detail}\n\nSigning session: ${sessionId}\n` };
}

export function voidNoticeMail(slot: SigningSlotRecord, formTitle: string, reason: string): MailMessage {
  return {
    to: slot.email!,
    subject: `Signing voided: ${formTitle}`,
    text: `Hello ${fullName(slot) || 'there'},\n\nThe signing of "${formTitle}" you took part in was voided.\nReason: ${reason}\n`,
  };
}

export function codeMail(to: string, code: string, formTitle: string): MailMessage {
  return { to, subject: `Your signing code: ${code}`, text: `Your code to sign "${formTitle}" is ${code}. It is valid for 10 minutes.\n` };
}

export function signedCopyMail(slot: SigningSlotRecord, formTitle: string, links: string[]): MailMessage {
  return {
    to: slot.email!,
    subject: `Signed: ${formTitle}`,
    text: `Hello ${fullName(slot) || 'there'},\n\nEvery party has signed "${formTitle}". Your sealed copies:\n\n${links.join('\n')}\n`,
  };
}
