import { inject, injectable } from 'tsyringe';
import type { SecretBox } from '../crypto-box';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { MailMessage, Mailer } from '../ports/mailer';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import { newOutboxItem } from './outbox-worker';
import { errorText, failedAttempt } from './retry';

/**
 * Queues a mail in `tx`, so it is sent only if the change that causes it commits, and never lost. The
 * message is sealed with the instance's secret box: mails carry secrets (invitation links), and the
 * outbox table must not hold them in clear text (docs/security.md).
 */
export async function enqueueMail(tx: Storage, ids: IdGenerator, clock: Clock, box: SecretBox, message: MailMessage) {
  await tx.outbox.enqueue(newOutboxItem(ids, clock.now().toISOString(), 'mail', { sealed: box.seal(JSON.stringify(message)) }));
}

/**
 * Sends queued mails through the mailer port; a failing server delays a mail, retried for about a day.
 * Once a mail is settled (sent or given up) its payload is emptied.
 */
@injectable()
export class MailHandler implements OutboxHandler {
  readonly kind = 'mail';
  readonly clearsPayload = true;
  constructor(
    @inject(TOKENS.Mailer) private readonly mailer: Mailer,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
  ) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    let message: MailMessage;
    try {
      // Mails queued before sealing was introduced are plain.
      const { sealed } = item.payload;
      message = typeof sealed === 'string' ? (JSON.parse(this.box.open(sealed)) as MailMessage) : (item.payload as unknown as MailMessage);
    } catch {
      return { status: 'failed', error: 'The queued mail cannot be read (was FORMLOOM_SECRET_KEY changed?)' };
    }
    try {
      await this.mailer.send(message);
      return { status: 'delivered' };
    } catch (e) {
      return failedAttempt(this.clock.now(), item.attempts, errorText(e));
    }
  }
}
