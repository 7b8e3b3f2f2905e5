import type { CreditCheckoutRecord, PaymentAccountRecord, PaymentRecord, PaymentRepository, PaymentStatus } from '@formloom/core';
import {
  accountFromRow,
  checkoutFromRow,
  CreditCheckoutEntity,
  type CreditCheckoutRow,
  PaymentAccountEntity,
  type PaymentAccountRow,
  PaymentEntity,
  PaymentEventEntity,
  paymentFromRow,
  type PaymentRow,
} from '../tables/payments';
import { columnsOf } from '../tables/columns';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';
import { FormloomError } from '@formloom/core';

/** A taken id or unique key inserts nothing (no error to abort a PostgreSQL transaction); the caller reports it. */
const insertOf = (d: Dialect, table: string, cols: string[]) =>
  `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => d.p(i + 1)).join(', ')}) ON CONFLICT DO NOTHING`;

export const paymentStatements = (d: Dialect) => {
  const payments = tableOf(d, PaymentEntity);
  const checkouts = tableOf(d, CreditCheckoutEntity);
  const accounts = tableOf(d, PaymentAccountEntity);
  const events = tableOf(d, PaymentEventEntity);
  return {
    /** A losing claim changes no row and raises nothing (an error would abort a PostgreSQL transaction). */
    claim: `INSERT INTO ${events} (processor, event_id, type, received_at) VALUES (${d.p(1)}, ${d.p(2)}, ${d.p(3)}, ${d.p(4)}) ON CONFLICT (processor, event_id) DO NOTHING`,
    insert: insertOf(d, payments, columnsOf(PaymentEntity)),
    byId: `SELECT * FROM ${payments} WHERE id = ${d.p(1)}`,
    byProcessorId: `SELECT * FROM ${payments} WHERE processor_payment_id = ${d.p(1)}`,
    forQuestion: `SELECT * FROM ${payments} WHERE response_id = ${d.p(1)} AND question_id = ${d.p(2)}`,
    replacePending:
      `UPDATE ${payments} SET processor_payment_id = ${d.p(1)}, amount = ${d.p(2)}, currency = ${d.p(3)}, destination = ${d.p(4)}, status = 'requires_payment', updated_at = ${d.p(5)} ` +
      `WHERE id = ${d.p(6)} AND status IN ('requires_payment', 'failed', 'canceled')`,
    update: `UPDATE ${payments} SET status = ${d.p(1)}, amount_refunded = ${d.p(2)}, updated_at = ${d.p(3)} WHERE id = ${d.p(4)}`,
    insertCheckout: insertOf(d, checkouts, columnsOf(CreditCheckoutEntity)),
    checkout: `SELECT * FROM ${checkouts} WHERE id = ${d.p(1)}`,
    completeCheckout: `UPDATE ${checkouts} SET status = 'completed', completed_at = ${d.p(1)} WHERE id = ${d.p(2)} AND status = 'open'`,
    checkoutsOf: `SELECT * FROM ${checkouts} WHERE user_id = ${d.p(1)} ORDER BY created_at DESC, id DESC LIMIT ${d.p(2)}`,
    putAccount:
      `INSERT INTO ${accounts} (user_id, account_id, charges_enabled, created_at, updated_at) VALUES (${d.p(1)}, ${d.p(2)}, ${d.p(3)}, ${d.p(4)}, ${d.p(5)}) ` +
      `ON CONFLICT (user_id) DO UPDATE SET account_id = excluded.account_id, charges_enabled = excluded.charges_enabled, updated_at = excluded.updated_at`,
    accountOf: `SELECT * FROM ${accounts} WHERE user_id = ${d.p(1)}`,
    accountById: `SELECT * FROM ${accounts} WHERE account_id = ${d.p(1)}`,
  };
};

export class SqlPaymentRepository implements PaymentRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(paymentStatements);
  }

  async claimEvent(c: { processor: string; event_id: string; type: string; received_at: string }): Promise<boolean> {
    return (await this.scope.db.run(this.st.claim, [c.processor, c.event_id, c.type, c.received_at])) > 0;
  }

  async insert(p: PaymentRecord): Promise<void> {
    const row: PaymentRow = p;
    const n = await this.scope.db.run(this.st.insert, columnsOf(PaymentEntity).map((c) => row[c as keyof PaymentRow]));
    if (n === 0) throw new FormloomError('CONFLICT', 'A payment for this question of the response (or this processor payment) already exists');
  }

  private async one(sql: string, params: unknown[]): Promise<PaymentRecord | null> {
    const [row] = await this.scope.db.all<PaymentRow>(sql, params);
    return row ? paymentFromRow(row) : null;
  }

  findById(id: string) {
    return this.one(this.st.byId, [id]);
  }

  findByProcessorId(processorPaymentId: string) {
    return this.one(this.st.byProcessorId, [processorPaymentId]);
  }

  findFor(responseId: string, questionId: string) {
    return this.one(this.st.forQuestion, [responseId, questionId]);
  }

  async forResponses(responseIds: readonly string[]): Promise<PaymentRecord[]> {
    if (!responseIds.length) return [];
    const out: PaymentRecord[] = [];
    // In slices: a statement's parameters are bounded (SQLite's default is 32,766; kept well below).
    for (let i = 0; i < responseIds.length; i += 500) {
      const slice = responseIds.slice(i, i + 500);
      const sql = `SELECT * FROM ${tableOf(this.scope.d, PaymentEntity)} WHERE response_id IN (${slice.map((_, j) => this.scope.d.p(j + 1)).join(', ')})`;
      out.push(...(await this.scope.db.all<PaymentRow>(sql, slice)).map(paymentFromRow));
    }
    return out;
  }

  async replacePending(id: string, p: { processor_payment_id: string; amount: number; currency: string; destination: string | null; updated_at: string }): Promise<boolean> {
    return (await this.scope.db.run(this.st.replacePending, [p.processor_payment_id, p.amount, p.currency, p.destination, p.updated_at, id])) > 0;
  }

  async update(id: string, patch: { status: PaymentStatus; amount_refunded: number; updated_at: string }): Promise<boolean> {
    return (await this.scope.db.run(this.st.update, [patch.status, patch.amount_refunded, patch.updated_at, id])) > 0;
  }

  async insertCheckout(c: CreditCheckoutRecord): Promise<void> {
    const row: CreditCheckoutRow = c;
    const n = await this.scope.db.run(this.st.insertCheckout, columnsOf(CreditCheckoutEntity).map((k) => row[k as keyof CreditCheckoutRow]));
    if (n === 0) throw new FormloomError('CONFLICT', `Checkout ${c.id} is already recorded`);
  }

  async findCheckout(id: string): Promise<CreditCheckoutRecord | null> {
    const [row] = await this.scope.db.all<CreditCheckoutRow>(this.st.checkout, [id]);
    return row ? checkoutFromRow(row) : null;
  }

  async completeCheckout(id: string, at: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.completeCheckout, [at, id])) > 0;
  }

  async checkoutsOf(userId: string, limit: number): Promise<CreditCheckoutRecord[]> {
    return (await this.scope.db.all<CreditCheckoutRow>(this.st.checkoutsOf, [userId, limit])).map(checkoutFromRow);
  }

  async putAccount(a: PaymentAccountRecord): Promise<void> {
    await this.scope.db.run(this.st.putAccount, [a.user_id, a.account_id, a.charges_enabled, a.created_at, a.updated_at]);
  }

  async accountOf(userId: string): Promise<PaymentAccountRecord | null> {
    const [row] = await this.scope.db.all<PaymentAccountRow>(this.st.accountOf, [userId]);
    return row ? accountFromRow(row) : null;
  }

  async accountById(accountId: string): Promise<PaymentAccountRecord | null> {
    const [row] = await this.scope.db.all<PaymentAccountRow>(this.st.accountById, [accountId]);
    return row ? accountFromRow(row) : null;
  }
}
