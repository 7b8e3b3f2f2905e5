import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/*
 * An index of idempotency keys by expiry: the outbox housekeeping deletes expired keys in bounded batches
 * (docs/decisions.md, "Idempotency keys expire and are purged"), and every page submission stores one.
 * Frozen once released, like the others.
 */
export class FormloomIdempotencyExpiry1742500000000 implements MigrationInterface {
  name = 'FormloomIdempotencyExpiry1742500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('idempotency_keys', new TableIndex({ name: 'IDX_idempotency_keys_expires_at', columnNames: ['expires_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('idempotency_keys', 'IDX_idempotency_keys_expires_at');
  }
}
