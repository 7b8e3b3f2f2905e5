import type { MailMessage } from '@formloom/core';
import {
  type ClosableMailer,
  DEFAULT_MAIL_FROM,
  errorMessage,
  MailDeliveryError,
  nodemailerTransport,
  toNodemailerMessage,
} from './mail-options';

export interface SmtpMailerOptions {
  /**
   * `smtp://[user:pass@]host[:port]` (plain, upgraded with STARTTLS when the server offers it; port 587 by
   * default) or `smtps://...` (TLS from the first byte; port 465 by default). Query parameters are
   * nodemailer SMTP options, e.g. `?tls.rejectUnauthorized=false` or `?requireTLS=true`.
   */
  url: string;
  /** Sender of messages that name none. Default `Formloom <no-reply@localhost>`. */
  from?: string;
  /** Connection, greeting and socket (idle) time-outs in milliseconds. Default 10 000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The Mailer port over SMTP with nodemailer. Each send opens its own connection (no pool), so one broken
 * connection never affects another send. `send` resolves `{id: Message-ID}` once the server answered 250
 * to the message data; it rejects with a MailDeliveryError when the server is unreachable or slow, refuses
 * the sender or every recipient, or refuses the data. When some recipients of a multi-address `to` are
 * refused and others accepted, the send resolves (retrying would duplicate the accepted copies).
 */
export function createSmtpMailer(options: SmtpMailerOptions): ClosableMailer {
  const target = describeSmtpUrl(options.url);
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const defaultFrom = options.from ?? DEFAULT_MAIL_FROM;
  const transport = nodemailerTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });

  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      const mail = toNodemailerMessage(message, defaultFrom);
      let info;
      try {
        info = await transport.sendMail(mail);
      } catch (err) {
        throw new MailDeliveryError(`SMTP server ${target} did not accept the message: ${errorMessage(err)}`, err);
      }
      if (!info.accepted?.length) {
        throw new MailDeliveryError(`SMTP server ${target} accepted no recipient: ${info.response}`, undefined);
      }
      return { id: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}

/** `smtp://host:port` without credentials, for messages; throws on a URL that is not smtp:// or smtps://. */
function describeSmtpUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The SMTP URL is not a valid URL (expected smtp://host:port or smtps://host:port)');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`The SMTP URL must start with smtp:// or smtps://, not ${parsed.protocol}//`);
  }
  if (!parsed.hostname) throw new Error('The SMTP URL has no host');
  const port = parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587');
  return `${parsed.protocol}//${parsed.hostname}:${port}`;
}
