import { z } from 'zod';
import type { PaymentRecord } from '../ports/storage';

/** A response's payment as the API shows it (docs/payments.md, "In responses"). */
export const paymentOut = z.object({
  id: z.string(),
  question_id: z.string(),
  provider: z.enum(['standard', 'connect']),
  processor_payment_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(['requires_payment', 'processing', 'succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded']),
  amount_refunded: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const presentPayment = (p: PaymentRecord): z.infer<typeof paymentOut> => ({
  id: p.id,
  question_id: p.question_id,
  provider: p.provider,
  processor_payment_id: p.processor_payment_id,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  amount_refunded: p.amount_refunded,
  created_at: p.created_at,
  updated_at: p.updated_at,
});
