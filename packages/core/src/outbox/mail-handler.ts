import { inject, injectable } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { MailMessage, Mailer } from '../ports/mailer';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import { newOutboxItem } from './outbox-worker';
import { errorText, failedAttempt } from './retry';

/** Queues a mail in `tx`, so it is sent only if the change that causes it commits, and never lost. */
export async function enqueueMail(tx: Storage, ids: IdGenerator, clock: Clock, message: MailMessage) {
  await tx.outbox.enqueue(newOutboxItem(ids, clock.now().toISOString(), 'mail', { ...message }));
}

/** Sends queued mails through the mailer port; a failing server delays a mail, retried for about a day. */
@injectable()
export class MailHandler implements OutboxHandler {
  readonly kind = 'mail';
  constructor(
    @inject(TOKENS.Mailer) private readonly mailer: Mailer,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    try {
      await this.mailer.send(item.payload as unknown as MailMessage);
      return { status: 'delivered' };
    } catch (e) {
      return failedAttempt(this.clock.now(), item.attempts, errorText(e));
    }
  }
}
