import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * Rate-limit counters (docs/security.md): one row per limited subject, reused window after window, so the
 * table holds the subjects seen lately rather than one row per request. A new table only: nothing existing
 * is rebuilt. Frozen once released, like the others.
 */
export class FormloomRateLimits1736500000000 implements MigrationInterface {
  name = 'FormloomRateLimits1736500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'rate_limits',
        columns: [
          { name: 'bucket_key', type: 'varchar', isPrimary: true },
          { name: 'hits', type: 'integer' },
          { name: 'resets_at', type: 'varchar' },
        ],
      }),
    );
    await queryRunner.createIndex('rate_limits', new TableIndex({ name: 'IDX_rate_limits_resets_at', columnNames: ['resets_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('rate_limits', 'IDX_rate_limits_resets_at');
    await queryRunner.dropTable('rate_limits');
  }
}
