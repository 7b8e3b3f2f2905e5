import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { MailMessage } from '@formloom/core';
import {
  type ClosableMailer,
  DEFAULT_MAIL_FROM,
  errorMessage,
  MailDeliveryError,
  nodemailerTransport,
  toNodemailerMessage,
} from './mail-options';

export interface FileOutboxMailerOptions {
  /** The outbox directory (`$FORMLOOM_DATA_DIR/outbox`); created, with its parents, when missing. */
  dir: string;
  /** Sender of messages that name none. Default `Formloom <no-reply@localhost>`. */
  from?: string;
  /** The clock for file names (tests). Default the system clock. */
  now?: () => Date;
}

/**
 * The Mailer port without a mail server: each message becomes one RFC 5322 file (`.eml`, CRLF line
 * breaks, MIME-encoded by nodemailer exactly as it would go over SMTP) in `dir`, which any mail client
 * opens. File names are `<UTC time>-<random>.eml`, e.g. `2026-11-21T15-44-07.123Z-3f9c0a1b2c4d.eml`: the
 * ISO 8601 time with `-` for `:` (valid on every file system), so they sort by creation time. A file is
 * written under a temporary dot-name, flushed to disk, then renamed, so a reader never sees half a
 * message. `send` resolves `{id: Message-ID}` once the file is in place; it rejects with a
 * MailDeliveryError when it cannot be written.
 */
export function createFileOutboxMailer(options: FileOutboxMailerOptions): ClosableMailer {
  const defaultFrom = options.from ?? DEFAULT_MAIL_FROM;
  const now = options.now ?? (() => new Date());
  const composer = nodemailerTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  return {
    kind: 'file-outbox',
    async send(message: MailMessage) {
      const mail = toNodemailerMessage(message, defaultFrom);
      const name = `${now().toISOString().replace(/:/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
      try {
        const info = await composer.sendMail(mail);
        if (!Buffer.isBuffer(info.message)) throw new Error('nodemailer did not return the message as a Buffer');
        // Owner-only: mails hold invitation links (docs/security.md).
        await mkdir(options.dir, { recursive: true, mode: 0o700 });
        await writeAtomically(join(options.dir, name), info.message);
        return { id: info.messageId };
      } catch (err) {
        throw new MailDeliveryError(`Could not write the message to the outbox ${options.dir}: ${errorMessage(err)}`, err);
      }
    },
    async close() {
      composer.close();
    },
  };
}

/** Writes `data` to a temporary sibling, flushes it, and renames it to `path` (atomic on one file system). */
async function writeAtomically(path: string, data: Buffer): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tmp`);
  const file = await open(temporary, 'wx', 0o600);
  try {
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (err) {
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
}
