import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { badRequest } from '../errors';
import type { Clock } from '../ports/clock';
import { PaymentSignatureError, type Payments, type ProcessorEvent } from '../ports/payments';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { processorOf } from './processor';
import { nextStatus, refundedStatus } from './payment-status';

export { nextStatus, refundedStatus } from './payment-status';
import { SubmissionService } from '../responses/submission-service';

export const webhookOut = z.object({ received: z.literal(true), duplicate: z.boolean() });

/**
 * The processor's signed events (docs/payments.md, "Webhooks"): verified by the adapter, then applied at most once
 * each: the event's id is claimed in the same transaction as its effect, so a duplicate, a retry, another instance
 * or a crash before the commit never applies one twice nor loses it (the processor retries until it gets a 2xx).
 */
@injectable()
export class PaymentEvents {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(SubmissionService) private readonly submissions: SubmissionService,
  ) {}

  async receive(body: Uint8Array | undefined, signature: string | undefined): Promise<z.infer<typeof webhookOut>> {
    const processor = processorOf(this.payments);
    if (!body) {
      throw badRequest('The event must reach this route as sent: mount the API router before any JSON body parser (docs/payments.md)', { reason: 'body_not_raw' });
    }
    let event: ProcessorEvent;
    try {
      event = processor.parseEvent(body, signature ?? '');
    } catch (e) {
      if (e instanceof PaymentSignatureError) throw badRequest('The event signature does not verify', { reason: 'invalid_signature' });
      throw e;
    }
    const at = this.clock.now().toISOString();
    let after: (() => void) | null = null;
    const applied = await this.storage.transaction(async (tx) => {
      if (!(await tx.payments.claimEvent({ processor: processor.id, event_id: event.id, type: event.type, received_at: at }))) return false;
      after = await this.apply(tx, event, at);
      return true;
    });
    (after as (() => void) | null)?.();
    return { received: true, duplicate: !applied };
  }

  /** The event's effect, in its transaction; what it returns runs once that committed. */
  private async apply(tx: Storage, event: ProcessorEvent, at: string): Promise<(() => void) | null> {
    switch (event.kind) {
      case 'checkout_completed': {
        if (!event.session.paid) return null;
        const checkout = await tx.payments.findCheckout(event.session.id);
        // Only checkouts this instance opened add credits, at the price it recorded (never the event's metadata).
        if (!checkout || !(await tx.payments.completeCheckout(checkout.id, at))) return null;
        await tx.credits.add(checkout.user_id, checkout.credits, { created_at: at });
        return null;
      }
      case 'payment': {
        const record = await tx.payments.findByProcessorId(event.payment.id);
        if (!record) return null;
        const status = nextStatus(record.status, event.payment.status);
        if (status !== record.status) await tx.payments.update(record.id, { status, amount_refunded: record.amount_refunded, updated_at: at });
        // Paid, even after the page was closed: the response completes when nothing else is missing.
        return status === 'succeeded' ? this.submissions.completePaidIn(tx, record.form_id, record.response_id) : null;
      }
      case 'refund': {
        const record = await tx.payments.findByProcessorId(event.payment_id);
        if (!record || event.amount_refunded <= record.amount_refunded) return null;
        await tx.payments.update(record.id, { status: refundedStatus(record, event.amount_refunded), amount_refunded: event.amount_refunded, updated_at: at });
        return null;
      }
      case 'account': {
        const account = await tx.payments.accountById(event.account.id);
        if (!account) return null;
        await tx.payments.putAccount({ ...account, charges_enabled: event.account.charges_enabled, updated_at: at });
        return null;
      }
      default:
        return null;
    }
  }
}
