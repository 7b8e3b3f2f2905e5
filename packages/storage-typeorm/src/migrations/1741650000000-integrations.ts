import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * A form's integrations and their delivery logs (docs/integrations.md). New tables only: nothing existing
 * is rebuilt. Frozen once released, like the others.
 */
export class FormloomIntegrations1741650000000 implements MigrationInterface {
  name = 'FormloomIntegrations1741650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = (name: string, nullable = false) => ({ name, type: 'varchar', isNullable: nullable });
    const t = (name: string, nullable = false) => ({ name, type: 'text', isNullable: nullable });
    const n = (name: string, nullable = false) => ({ name, type: 'integer', isNullable: nullable });
    await queryRunner.createTable(
      new Table({
        name: 'integrations',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          s('form_id'), s('type'), s('name'), s('status'), t('paused_reason', true), t('config'), t('secrets', true), t('fields', true),
          s('created_by'), s('created_at'), s('updated_at'),
        ],
        foreignKeys: [{ name: 'FK_integrations_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await queryRunner.createIndex('integrations', new TableIndex({ name: 'IDX_integrations_form', columnNames: ['form_id', 'created_at'] }));
    await queryRunner.createTable(
      new Table({
        name: 'integration_deliveries',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          s('integration_id'), s('form_id'), s('response_id', true), s('event'), s('status'), n('attempts'),
          n('last_status_code', true), n('last_duration_ms', true), t('last_error', true), t('last_response_excerpt', true),
          s('next_attempt_at', true), s('created_at'), s('updated_at'),
        ],
        foreignKeys: [
          { name: 'FK_integration_deliveries_integration_id', columnNames: ['integration_id'], referencedTableName: 'integrations', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.createIndex(
      'integration_deliveries',
      new TableIndex({ name: 'IDX_integration_deliveries_integration_created', columnNames: ['integration_id', 'created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('integration_deliveries');
    await queryRunner.dropTable('integrations');
  }
}
