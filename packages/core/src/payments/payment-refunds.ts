import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { Principal } from '../domain/types';
import { badRequest, conflict, notFound } from '../errors';
import { authorizeForm } from '../forms/form-access';
import { sha256Hex } from '../hashing';
import type { Clock } from '../ports/clock';
import type { Payments } from '../ports/payments';
import type { PaymentRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { presentPayment } from './payment-out';
import { refundedStatus } from './payment-status';
import { atProcessor, processorOf } from './processor';

export const refundSchema = z.object({ amount: z.number().int().positive().optional() }).strict();

const PAID: ReadonlySet<PaymentRecord['status']> = new Set(['succeeded', 'partially_refunded', 'refunded']);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Refunds of a response's payments (docs/payments.md, "Refunds"), whole or partial, by whoever may delete the form's
 * responses. With an `Idempotency-Key` a retry refunds nothing more: the key is claimed (exactly one of concurrent
 * claims wins) and answered with the first result once done; it is also the processor's idempotency key, so a retry
 * after a crash between the processor's refund and our record gets the processor's replay of that refund, never a
 * second one. Without a key, the processor's key is the payment's state and the amount (two identical requests at
 * once refund once; one sent again after the first finished is a new refund).
 */
@injectable()
export class PaymentRefunds {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** POST /forms/:id/responses/:responseId/payments/:paymentId/refund: all that is left, or `amount` of it. */
  async refund(principal: Principal, formId: string, responseId: string, paymentId: string, body: z.infer<typeof refundSchema>, idempotencyKey?: string) {
    await authorizeForm(this.storage, principal, formId, 'delete_responses');
    const processor = processorOf(this.payments);
    if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
      throw badRequest('Idempotency-Key: 1 to 255 characters', { field: 'Idempotency-Key' });
    }
    const p = await this.storage.payments.findById(paymentId);
    if (!p || p.form_id !== formId || p.response_id !== responseId) throw notFound('Payment');

    const claim = idempotencyKey === undefined ? null : await this.claim(p, idempotencyKey, body);
    if (claim?.kind === 'replay') return claim.result;
    // A claim left running (a request under way, or one stopped by a crash): the processor decides, with the same key.
    const resumed = claim?.kind === 'running';
    try {
      if (!PAID.has(p.status)) throw conflict('Only a payment that succeeded can be refunded', { reason: 'payment_not_refundable' });
      const left = p.amount - p.amount_refunded;
      if (resumed && body.amount === undefined && left <= 0) return presentPayment(p);
      const amount = body.amount ?? left;
      if (!resumed && (amount > left || left <= 0)) throw conflict(`At most ${left} (in the currency's smallest unit) is left to refund`, { reason: 'refund_too_large' });
      const key = claim ? `refund-${p.id}-${claim.hash}` : `refund-${p.id}-${p.amount_refunded}-${amount}`;
      await atProcessor(() => processor.refund({ payment_id: p.processor_payment_id, amount, idempotency_key: key, reverse_transfer: p.provider === 'connect' }));
      // What the processor says is refunded now, never our sum: a replayed refund adds nothing.
      const fresh = await atProcessor(() => processor.retrievePayment(p.processor_payment_id));
      const result = presentPayment(await this.record(p.id, Math.max(fresh.amount_refunded, p.amount_refunded + (resumed ? 0 : amount))));
      if (claim) await this.storage.idempotency.complete(claim.stored, result);
      return result;
    } catch (e) {
      if (claim?.kind === 'new') await this.storage.idempotency.release(claim.stored);
      throw e;
    }
  }

  /** Raises the recorded refunded amount to `refunded` (never lowers it: a later event or refund may be ahead). */
  private async record(id: string, refunded: number): Promise<PaymentRecord> {
    const now = (await this.storage.payments.findById(id))!;
    const total = Math.min(now.amount, Math.max(now.amount_refunded, refunded));
    if (total === now.amount_refunded) return now;
    const patch = { status: refundedStatus(now, total), amount_refunded: total, updated_at: this.clock.now().toISOString() };
    await this.storage.payments.update(id, patch);
    return { ...now, ...patch };
  }

  private async claim(p: PaymentRecord, key: string, body: z.infer<typeof refundSchema>) {
    const hash = sha256Hex(key).slice(0, 40);
    const stored = `refund:${p.id}:${hash}`;
    const owner = sha256Hex(`refund\u0000${body.amount ?? 'rest'}`);
    const now = this.clock.now();
    if (await this.storage.idempotency.claim({ key: stored, owner, created_at: now.toISOString(), expires_at: new Date(now.getTime() + DAY_MS).toISOString() }, now.toISOString())) {
      return { kind: 'new' as const, stored, hash };
    }
    const record = await this.storage.idempotency.find(stored);
    if (record && record.owner !== owner) throw conflict('This Idempotency-Key was used with a different amount', { reason: 'idempotency_conflict' });
    if (record?.status === 'done' && record.result) return { kind: 'replay' as const, result: record.result as ReturnType<typeof presentPayment> };
    return { kind: 'running' as const, stored, hash };
  }
}
