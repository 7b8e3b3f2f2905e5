import { inject, injectable } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { presentCall } from './booking-trails';

/** The outbox kind that sends `booking.call_completed` once a call's outcome is known. */
export const BOOKING_CALL_WEBHOOK_JOB = 'booking.call_webhook';

/**
 * Webhooks of a confirmation call's outcome (docs/booking.md, "The outcome"): the response's webhook goes out at
 * submission, before the call, so the outcome is its own event, `booking.call_completed`, to the same targets
 * (the form's webhook and the owner's global ones), signed and retried like submissions. Queued by the outcome's
 * transaction; sent once (the trail's `webhook.call_completed` entry is written with the deliveries).
 */
@injectable()
export class CallOutcomeWebhooks implements OutboxHandler {
  readonly kind = BOOKING_CALL_WEBHOOK_JOB;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
  ) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const id = String(item.payload.booking_id);
    const [booking, call] = await Promise.all([this.storage.bookings.findById(id), this.storage.bookingCalls.findByBooking(id)]);
    const form = booking ? await this.storage.forms.findById(booking.form_id) : null;
    if (!booking || !call || !form || !booking.response_id) return { status: 'delivered' };
    const targets = await this.webhooks.targetsFor(form);
    if (!targets.length) return { status: 'delivered' };
    const body = JSON.stringify({
      event: 'booking.call_completed',
      form_id: form.id,
      form_title: form.title,
      booking: {
        id: booking.id, question_id: booking.question_id, response_id: booking.response_id, status: booking.status,
        start: booking.start, end: booking.end, timezone: booking.timezone, confirmation_call: presentCall(call),
      },
    });
    await this.storage.transaction(async (tx) => {
      const first = await tx.bookingCalls.addEvent({ id: `bev_wh_${id}`, booking_id: id, key: 'webhook.call_completed', kind: 'webhook_queued', detail: { targets: targets.length }, at: call.updated_at });
      if (first) await this.webhooks.enqueueEvent(tx, form, booking.response_id!, targets, 'booking.call_completed', body);
    });
    return { status: 'delivered' };
  }
}
