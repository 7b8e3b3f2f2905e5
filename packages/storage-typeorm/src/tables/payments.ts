import type { CreditCheckoutRecord, PaymentAccountRecord, PaymentRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { type Bool, bool, id, int, optStr, str, toBool } from './columns';

/* Payments (docs/payments.md): payments of payment questions, voice-credit checkouts, owners' connected
 * accounts, and the processor's events applied (one row per event: the unique key that makes each apply once). */

export type PaymentRow = PaymentRecord;

export const PaymentEntity = new EntitySchema<PaymentRow>({
  name: 'FormloomPayment',
  tableName: 'payments',
  columns: {
    id, form_id: str, response_id: str, question_id: str, provider: str, processor_payment_id: str, destination: optStr,
    amount: int, currency: str, status: str, amount_refunded: int, created_at: str, updated_at: str,
  },
  indices: [
    { name: 'UQ_payments_processor_payment_id', columns: ['processor_payment_id'], unique: true },
    { name: 'UQ_payments_response_question', columns: ['response_id', 'question_id'], unique: true },
    { name: 'IDX_payments_form', columns: ['form_id'] },
  ],
});

export const paymentFromRow = (r: PaymentRow): PaymentRecord => ({ ...r, amount: Number(r.amount), amount_refunded: Number(r.amount_refunded) });

export type CreditCheckoutRow = CreditCheckoutRecord;

export const CreditCheckoutEntity = new EntitySchema<CreditCheckoutRow>({
  name: 'FormloomCreditCheckout',
  tableName: 'credit_checkouts',
  columns: { id, user_id: str, credits: int, amount: int, currency: str, status: str, created_at: str, completed_at: optStr },
  indices: [{ name: 'IDX_credit_checkouts_user', columns: ['user_id', 'created_at'] }],
});

export const checkoutFromRow = (r: CreditCheckoutRow): CreditCheckoutRecord => ({ ...r, credits: Number(r.credits), amount: Number(r.amount) });

export type PaymentAccountRow = Omit<PaymentAccountRecord, 'charges_enabled'> & { charges_enabled: Bool };

export const PaymentAccountEntity = new EntitySchema<PaymentAccountRow>({
  name: 'FormloomPaymentAccount',
  tableName: 'payment_accounts',
  columns: { user_id: id, account_id: str, charges_enabled: bool, created_at: str, updated_at: str },
  indices: [{ name: 'UQ_payment_accounts_account', columns: ['account_id'], unique: true }],
});

export const accountFromRow = (r: PaymentAccountRow): PaymentAccountRecord => ({ ...r, charges_enabled: toBool(r.charges_enabled) });

export interface PaymentEventRow {
  processor: string;
  event_id: string;
  type: string;
  received_at: string;
}

export const PaymentEventEntity = new EntitySchema<PaymentEventRow>({
  name: 'FormloomPaymentEvent',
  tableName: 'payment_events',
  columns: { processor: { type: 'varchar', primary: true }, event_id: { type: 'varchar', primary: true }, type: str, received_at: str },
});
