import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Table, TableIndex } from 'typeorm';

/*
 * The analytics indexer's queue (issue 35; docs/decisions.md, "The analytics indexer"): `response_index_queue`,
 * one row per response whose question, value, funnel, answers index and pair counters are not written yet.
 * Created empty: every response stored before it is already counted. Frozen once released, like the others.
 */
export class FormloomResponseIndexQueue1742700000000 implements MigrationInterface {
  name = 'FormloomResponseIndexQueue1742700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'response_index_queue',
        columns: [
          { name: 'response_id', type: 'varchar', isPrimary: true },
          { name: 'form_id', type: 'varchar' },
        ],
        foreignKeys: [
          {
            name: 'FK_response_index_queue_response_id',
            columnNames: ['response_id'],
            referencedTableName: 'responses',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createIndex('response_index_queue', new TableIndex({ name: 'IDX_response_index_queue_form', columnNames: ['form_id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('response_index_queue');
  }
}
