import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { badRequest } from '../errors';
import type { Clock } from '../ports/clock';
import { PaymentSignatureError, type Payments, type ProcessorEvent, type ProcessorPaymentStatus } from '../ports/payments';
import type { PaymentRecord, PaymentStatus, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { processorOf } from './processor';

export const webhookOut = z.object({ received: z.literal(true), duplicate: z.boolean() });

/** Where a payment's state may go: a settled payment never goes back to an earlier state (events arrive in any order). */
const RANK: Record<PaymentStatus, number> = { requires_payment: 0, failed: 1, canceled: 1, processing: 2, succeeded: 3, partially_refunded: 4, refunded: 5 };

export function nextStatus(current: PaymentStatus, reported: ProcessorPaymentStatus): PaymentStatus {
  if (current === 'succeeded' || current === 'partially_refunded' || current === 'refunded') return current;
  // A failed attempt may be followed by another that succeeds (the respondent tries another card).
  if (reported === 'failed' || reported === 'requires_payment') return current === 'processing' ? current : reported;
  return RANK[reported] >= RANK[current] ? reported : current;
}

export const refundedStatus = (p: Pick<PaymentRecord, 'amount'>, refunded: number): PaymentStatus =>
  refunded <= 0 ? 'succeeded' : refunded >= p.amount ? 'refunded' : 'partially_refunded';

/** Called in the event's transaction when a payment of a response succeeded (the responses area completes it). */
export type PaymentSucceededHook = (tx: Storage, payment: PaymentRecord) => Promise<void>;

/**
 * The processor's signed events (docs/payments.md, "Webhooks"): verified by the adapter, then applied at most once
 * each: the event's id is claimed in the same transaction as its effect, so a duplicate, a retry, another instance
 * or a crash before the commit never applies one twice nor loses it (the processor retries until it gets a 2xx).
 */
@injectable()
export class PaymentEvents {
  private readonly succeeded: PaymentSucceededHook[] = [];

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** Runs `hook` in the transaction of every event that moves a response's payment to `succeeded`. */
  onSucceeded(hook: PaymentSucceededHook) {
    this.succeeded.push(hook);
  }

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
    const applied = await this.storage.transaction(async (tx) => {
      if (!(await tx.payments.claimEvent({ processor: processor.id, event_id: event.id, type: event.type, received_at: at }))) return false;
      await this.apply(tx, event, at);
      return true;
    });
    return { received: true, duplicate: !applied };
  }

  private async apply(tx: Storage, event: ProcessorEvent, at: string): Promise<void> {
    switch (event.kind) {
      case 'checkout_completed': {
        if (!event.session.paid) return;
        const checkout = await tx.payments.findCheckout(event.session.id);
        // Only checkouts this instance opened add credits, at the price it recorded (never the event's metadata).
        if (!checkout || !(await tx.payments.completeCheckout(checkout.id, at))) return;
        await tx.credits.add(checkout.user_id, checkout.credits, { created_at: at });
        return;
      }
      case 'payment': {
        const record = await tx.payments.findByProcessorId(event.payment.id);
        if (!record) return;
        const status = nextStatus(record.status, event.payment.status);
        if (status === record.status) return;
        await tx.payments.update(record.id, { status, amount_refunded: record.amount_refunded, updated_at: at });
        if (status === 'succeeded') for (const hook of this.succeeded) await hook(tx, { ...record, status, updated_at: at });
        return;
      }
      case 'refund': {
        const record = await tx.payments.findByProcessorId(event.payment_id);
        if (!record || event.amount_refunded <= record.amount_refunded) return;
        await tx.payments.update(record.id, { status: refundedStatus(record, event.amount_refunded), amount_refunded: event.amount_refunded, updated_at: at });
        return;
      }
      case 'account': {
        const account = await tx.payments.accountById(event.account.id);
        if (!account) return;
        await tx.payments.putAccount({ ...account, charges_enabled: event.account.charges_enabled, updated_at: at });
        return;
      }
      default:
        return;
    }
  }
}
