import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * Bookings (docs/booking.md): booked and held slots; the 5-minute cells each booking takes in its owner's
 * calendar, whose primary key (owner_id, cell) is what keeps two bookings off one slot across instances; and
 * owners' calendar connections (the password sealed). New tables only. Frozen once released, like the others.
 */
export class FormloomBookings1741800000000 implements MigrationInterface {
  name = 'FormloomBookings1741800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const v = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'varchar', ...extra });
    const n = (name: string) => v(name, { isNullable: true });
    await queryRunner.createTable(
      new Table({
        name: 'bookings',
        columns: [
          v('id', { isPrimary: true }), v('owner_id'), v('form_id'), v('question_id'), n('response_id'), v('status'), v('starts_at'), v('ends_at'),
          v('timezone'), n('held_until'), n('manage_token_hash'), n('rescheduled_from'), v('created_at'), v('updated_at'),
        ],
      }),
    );
    await queryRunner.createIndex('bookings', new TableIndex({ name: 'IDX_bookings_owner_time', columnNames: ['owner_id', 'starts_at'] }));
    await queryRunner.createIndex('bookings', new TableIndex({ name: 'IDX_bookings_response', columnNames: ['response_id'] }));
    await queryRunner.createTable(
      new Table({ name: 'booking_cells', columns: [v('owner_id', { isPrimary: true }), { name: 'cell', type: 'integer', isPrimary: true }, v('booking_id')] }),
    );
    await queryRunner.createIndex('booking_cells', new TableIndex({ name: 'IDX_booking_cells_booking', columnNames: ['booking_id'] }));
    await queryRunner.createTable(
      new Table({
        name: 'calendar_connections',
        columns: [v('user_id', { isPrimary: true }), v('url'), v('username'), v('password_sealed'), v('calendar_url'), n('calendar_name'), v('created_at'), v('updated_at')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const t of ['calendar_connections', 'booking_cells', 'bookings']) await queryRunner.dropTable(t);
  }
}
