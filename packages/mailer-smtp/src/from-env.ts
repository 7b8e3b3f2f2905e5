import { join } from 'node:path';
import { createFileOutboxMailer } from './file-outbox-mailer';
import { type ClosableMailer, DEFAULT_MAIL_FROM } from './mail-options';
import { createSmtpMailer } from './smtp-mailer';

/**
 * The mailer the operator configured (docs/mail.md): SMTP when `FORMLOOM_SMTP_URL` is set (non-empty),
 * otherwise the file outbox in `<dataDir>/outbox`. The sender is `FORMLOOM_MAIL_FROM`, default
 * `Formloom <no-reply@localhost>`. Throws when `FORMLOOM_SMTP_URL` is not an smtp:// or smtps:// URL, so a
 * typo fails at start-up rather than at the first mail.
 */
export function createMailerFromEnv(env: Record<string, string | undefined>, dataDir: string): ClosableMailer {
  const from = env.FORMLOOM_MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  const url = env.FORMLOOM_SMTP_URL?.trim();
  if (url) return createSmtpMailer({ url, from });
  return createFileOutboxMailer({ dir: join(dataDir, 'outbox'), from });
}
