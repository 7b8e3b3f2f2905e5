import type { ProcessorPaymentStatus } from '../ports/payments';
import type { PaymentRecord, PaymentStatus } from '../ports/storage';

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
