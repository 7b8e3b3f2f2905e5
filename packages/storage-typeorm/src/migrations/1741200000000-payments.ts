import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * Payments (docs/payments.md): payments of payment questions (one per question of a response, one per
 * processor payment), voice-credit checkouts, owners' connected accounts, and the processor's events applied:
 * the primary key (processor, event_id) is what makes each event apply once, across retries and instances.
 * New tables only. Frozen once released, like the others.
 */
export class FormloomPayments1741200000000 implements MigrationInterface {
  name = 'FormloomPayments1741200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const v = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'varchar', ...extra });
    const i = (name: string) => ({ name, type: 'integer' });
    await queryRunner.createTable(
      new Table({
        name: 'payments',
        columns: [
          v('id', { isPrimary: true }), v('form_id'), v('response_id'), v('question_id'), v('provider'), v('processor_payment_id'),
          v('destination', { isNullable: true }), i('amount'), v('currency'), v('status'), i('amount_refunded'), v('created_at'), v('updated_at'),
        ],
      }),
    );
    await queryRunner.createIndex('payments', new TableIndex({ name: 'UQ_payments_processor_payment_id', columnNames: ['processor_payment_id'], isUnique: true }));
    await queryRunner.createIndex('payments', new TableIndex({ name: 'UQ_payments_response_question', columnNames: ['response_id', 'question_id'], isUnique: true }));
    await queryRunner.createIndex('payments', new TableIndex({ name: 'IDX_payments_form', columnNames: ['form_id'] }));
    await queryRunner.createTable(
      new Table({
        name: 'credit_checkouts',
        columns: [v('id', { isPrimary: true }), v('user_id'), i('credits'), i('amount'), v('currency'), v('status'), v('created_at'), v('completed_at', { isNullable: true })],
      }),
    );
    await queryRunner.createIndex('credit_checkouts', new TableIndex({ name: 'IDX_credit_checkouts_user', columnNames: ['user_id', 'created_at'] }));
    await queryRunner.createTable(
      new Table({
        name: 'payment_accounts',
        columns: [v('user_id', { isPrimary: true }), v('account_id'), { name: 'charges_enabled', type: 'boolean' }, v('created_at'), v('updated_at')],
      }),
    );
    await queryRunner.createIndex('payment_accounts', new TableIndex({ name: 'UQ_payment_accounts_account', columnNames: ['account_id'], isUnique: true }));
    await queryRunner.createTable(
      new Table({ name: 'payment_events', columns: [v('processor', { isPrimary: true }), v('event_id', { isPrimary: true }), v('type'), v('received_at')] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const t of ['payment_events', 'payment_accounts', 'credit_checkouts', 'payments']) await queryRunner.dropTable(t);
  }
}
