import { type MigrationInterface, type QueryRunner, Table, TableIndex, type TableColumnOptions } from 'typeorm';

/*
 * Responses, global webhooks and their secrets, webhook deliveries and their attempts. Table API as in the
 * initial migration (which stays as it shipped), so it runs on SQLite and PostgreSQL. Names match
 * src/entities.ts. Migrations are frozen once released: the helpers are repeated here, not shared.
 */

const pk = (name: string): TableColumnOptions => ({ name, type: 'varchar', isPrimary: true });
const str = (name: string): TableColumnOptions => ({ name, type: 'varchar' });
const optStr = (name: string): TableColumnOptions => ({ name, type: 'varchar', isNullable: true });
const text = (name: string): TableColumnOptions => ({ name, type: 'text' });
const optText = (name: string): TableColumnOptions => ({ name, type: 'text', isNullable: true });
const bool = (name: string): TableColumnOptions => ({ name, type: 'boolean' });
const int = (name: string): TableColumnOptions => ({ name, type: 'integer' });
const optInt = (name: string): TableColumnOptions => ({ name, type: 'integer', isNullable: true });

const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

const cascadeTo = (name: string, column: string, referencedTableName: string) => ({
  name,
  columnNames: [column],
  referencedTableName,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/** Built per run: TypeORM mutates the Table objects it is given. Parents before children. */
const buildTables = (): { table: Table; indices: TableIndex[] }[] => [
  {
    table: new Table({
      name: 'responses',
      columns: [
        pk('id'), str('form_id'), optStr('visitor_id'), optStr('version_id'), optInt('version'), text('answers'),
        text('metadata'), optText('quiz_results'), optStr('started_at'), str('submitted_at'), optStr('completed_at'),
        optInt('completion_seconds'), optStr('resume_token_hash'), optStr('unique_visitor'),
      ],
      foreignKeys: [cascadeTo('FK_responses_form_id', 'form_id', 'forms')],
    }),
    indices: [
      // Listing, keyset scan and cascade use the prefix; the trailing columns make it cover analytics.
      index('IDX_responses_form_submitted', ['form_id', 'submitted_at', 'id', 'completed_at', 'completion_seconds']),
      // Both databases treat NULLs as distinct in a unique index: only set values collide.
      index('UQ_responses_form_unique_visitor', ['form_id', 'unique_visitor'], true),
    ],
  },
  {
    table: new Table({
      name: 'global_webhooks',
      columns: [
        { name: 'user_id', type: 'varchar', isPrimary: true }, { name: 'position', type: 'integer', isPrimary: true },
        text('url'), bool('enabled'),
      ],
    }),
    indices: [],
  },
  {
    table: new Table({ name: 'webhook_secrets', columns: [pk('user_id'), text('secret')] }),
    indices: [],
  },
  {
    table: new Table({
      name: 'webhook_deliveries',
      columns: [
        pk('id'), str('form_id'), optStr('response_id'), str('user_id'), text('url'), str('event'), text('body'),
        str('status'), int('attempts'), optInt('last_status_code'), optInt('last_duration_ms'), optText('last_error'),
        optStr('next_attempt_at'), str('created_at'), str('updated_at'),
      ],
      foreignKeys: [cascadeTo('FK_webhook_deliveries_form_id', 'form_id', 'forms')],
    }),
    indices: [index('IDX_webhook_deliveries_form_created', ['form_id', 'created_at'])],
  },
  {
    table: new Table({
      name: 'webhook_delivery_attempts',
      columns: [
        pk('id'), str('delivery_id'), int('attempt'), optInt('status_code'), int('duration_ms'), optText('error'),
        str('created_at'),
      ],
      foreignKeys: [cascadeTo('FK_webhook_delivery_attempts_delivery_id', 'delivery_id', 'webhook_deliveries')],
    }),
    indices: [index('IDX_webhook_delivery_attempts_delivery_id', ['delivery_id'])],
  },
];

export class FormloomResponsesWebhooks1733000000000 implements MigrationInterface {
  name = 'FormloomResponsesWebhooks1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, indices } of buildTables()) {
      await queryRunner.createTable(table);
      for (const i of indices) await queryRunner.createIndex(table.name, i);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of buildTables().reverse()) await queryRunner.dropTable(table.name);
  }
}
