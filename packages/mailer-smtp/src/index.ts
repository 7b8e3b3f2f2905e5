export { createFileOutboxMailer, type FileOutboxMailerOptions } from './file-outbox-mailer';
export { createMailerFromEnv } from './from-env';
export { type ClosableMailer, DEFAULT_MAIL_FROM, MailDeliveryError } from './mail-options';
export { createSmtpMailer, type SmtpMailerOptions } from './smtp-mailer';
