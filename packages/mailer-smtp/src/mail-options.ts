import type { Mailer, MailMessage } from '@formloom/core';
import type { SendMailOptions, SentMessageInfo, Transporter } from 'nodemailer';

/** The sender used when neither the message nor the configuration names one (FORMLOOM_MAIL_FROM's default). */
export const DEFAULT_MAIL_FROM = 'Formloom <no-reply@localhost>';

/** A Mailer that holds resources until closed. */
export interface ClosableMailer extends Mailer {
  /** `smtp` or `file-outbox`, for start-up logs. */
  readonly kind: 'smtp' | 'file-outbox';
  /** Releases what the mailer holds (SMTP connections); sends after close are not supported. */
  close(): Promise<void>;
}

/**
 * Why a message was not accepted. `responseCode` is the SMTP reply code when a server answered (550, 421,
 * ...); `code` is nodemailer's or Node's error code (`EENVELOPE`, `ECONNREFUSED`, `ETIMEDOUT`, `ENOSPC`, ...).
 * The original error is the `cause`.
 */
export class MailDeliveryError extends Error {
  readonly code?: string;
  readonly responseCode?: number;
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'MailDeliveryError';
    const details = (cause ?? {}) as { code?: unknown; responseCode?: unknown };
    if (typeof details.code === 'string') this.code = details.code;
    if (typeof details.responseCode === 'number') this.responseCode = details.responseCode;
  }
}

/**
 * The nodemailer fields for one port message. Only strings go in: no attachments, no paths or URLs to
 * fetch (the transports also disable file and URL access), so a message body can never read a local file.
 */
export function toNodemailerMessage(message: MailMessage, defaultFrom: string): SendMailOptions {
  if (typeof message.to !== 'string' || message.to.trim() === '') {
    throw new MailDeliveryError('The message has no recipient (`to` is empty)', undefined);
  }
  const options: SendMailOptions = {
    from: message.from ?? (message.fromName ? { name: message.fromName, address: addressOf(defaultFrom) } : defaultFrom),
    to: message.to,
    subject: message.subject,
    text: message.text,
  };
  if (message.html !== undefined) options.html = message.html;
  if (message.replyTo !== undefined) options.replyTo = message.replyTo;
  // A string, never a path or URL: nodemailer adds it as the text/calendar alternative (and an invite.ics).
  if (message.calendar !== undefined) options.icalEvent = { method: message.calendar.method, content: message.calendar.content, filename: 'invite.ics' };
  return options;
}

/** The address of a sender such as `Formloom <no-reply@example.com>` (or a bare address). */
const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The one nodemailer set-up of this package: `settings` (SMTP or message composition) plus what every
 * transport here must have, file and URL access disabled, so no message can make nodemailer read a local
 * file or fetch a URL.
 */
export function nodemailerTransport(settings: Record<string, unknown>): LazyTransport {
  // nodemailer (about 40 modules) loads with the first message, not with the server (docs/benchmarks.md,
  // "Where the memory goes"): most instances send mail rarely, and some never.
  let transport: Transporter | null = null;
  const open = (): Transporter => {
    const { createTransport } = require('nodemailer') as typeof import('nodemailer');
    return (transport ??= createTransport({ ...settings, disableFileAccess: true, disableUrlAccess: true }));
  };
  return {
    sendMail: (mail) => open().sendMail(mail),
    close: () => transport?.close(),
  };
}

/** What the mailers use of a nodemailer transport, opened at the first message. */
export interface LazyTransport {
  sendMail(mail: SendMailOptions): Promise<SentMessageInfo>;
  close(): void;
}
