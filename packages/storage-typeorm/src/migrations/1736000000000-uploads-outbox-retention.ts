import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * Uploads are recorded (form, question, size, the response that names them) so that a form's uploads have
 * a quota and unattached ones are swept; settled outbox items are purged by age (docs/security.md). Only a
 * new table and indexes: nothing existing is rebuilt. Frozen once released, like the others.
 */
const index = (name: string, columnNames: string[], isUnique = false) => new TableIndex({ name, columnNames, isUnique });

export class FormloomUploadsOutboxRetention1736000000000 implements MigrationInterface {
  name = 'FormloomUploadsOutboxRetention1736000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'uploads',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'form_id', type: 'varchar' },
          { name: 'question_id', type: 'varchar' },
          { name: 'key', type: 'varchar' },
          { name: 'size', type: 'integer' },
          { name: 'response_id', type: 'varchar', isNullable: true },
          { name: 'created_at', type: 'varchar' },
        ],
        foreignKeys: [
          { name: 'FK_uploads_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.createIndex('uploads', index('UQ_uploads_key', ['key'], true));
    await queryRunner.createIndex('uploads', index('IDX_uploads_form', ['form_id']));
    await queryRunner.createIndex('uploads', index('IDX_uploads_response_created', ['response_id', 'created_at']));
    await queryRunner.createIndex('outbox', index('IDX_outbox_status_updated', ['status', 'updated_at']));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('outbox', 'IDX_outbox_status_updated');
    await queryRunner.dropTable('uploads');
  }
}
