import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * Confirmation calls of bookings (docs/booking.md, "Confirmation calls"): one row per booking (its id the primary
 * key: never two calls for one booking) and the bookings' audit trail, unique per (booking, event key) so a
 * duplicate provider callback records nothing twice. New tables only. Frozen once released, like the others.
 */
export class FormloomBookingCalls1742000000000 implements MigrationInterface {
  name = 'FormloomBookingCalls1742000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const v = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'varchar', ...extra });
    const n = (name: string) => v(name, { isNullable: true });
    await queryRunner.createTable(
      new Table({
        name: 'booking_calls',
        columns: [
          v('booking_id', { isPrimary: true }), v('owner_id'), v('form_id'), v('state'), n('outcome'), n('reason'), v('to_number'), n('call_id'),
          n('generation_id'), n('audio_token_hash'), n('audio_expires_at'), v('created_at'), v('updated_at'),
        ],
      }),
    );
    await queryRunner.createIndex('booking_calls', new TableIndex({ name: 'IDX_booking_calls_call', columnNames: ['call_id'] }));
    await queryRunner.createIndex('booking_calls', new TableIndex({ name: 'IDX_booking_calls_audio', columnNames: ['audio_token_hash'] }));
    await queryRunner.createTable(
      new Table({ name: 'booking_events', columns: [v('id', { isPrimary: true }), v('booking_id'), v('event_key'), v('kind'), { name: 'detail', type: 'text' }, v('at')] }),
    );
    await queryRunner.createIndex('booking_events', new TableIndex({ name: 'UQ_booking_events_key', columnNames: ['booking_id', 'event_key'], isUnique: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const t of ['booking_events', 'booking_calls']) await queryRunner.dropTable(t);
  }
}
