import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Table, TableIndex } from 'typeorm';

/*
 * Filters by answer and the funnel (issue 37; docs/decisions.md, "Filters by answer" and "Funnel"):
 * `response_answers`, one row per answered question and key of each response, with two indexes a filter
 * seeks in (by value, by number); `response_funnel`, counters per form, version and step. Created empty:
 * responses stored before this migration are indexed and counted by `formloom analytics rebuild`, which the
 * upgrade notes name (as for `question_values`). Frozen once released, like the others.
 */
export class FormloomResponseAnswers1741400000000 implements MigrationInterface {
  name = 'FormloomResponseAnswers1741400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'response_answers',
        columns: [
          { name: 'response_id', type: 'varchar', isPrimary: true },
          { name: 'question_id', type: 'varchar', isPrimary: true },
          { name: 'value', type: 'varchar', isPrimary: true },
          { name: 'form_id', type: 'varchar' },
          { name: 'num', type: 'double precision', isNullable: true },
          { name: 'submitted_at', type: 'varchar' },
        ],
        foreignKeys: [
          {
            name: 'FK_response_answers_response_id',
            columnNames: ['response_id'],
            referencedTableName: 'responses',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createIndex(
      'response_answers',
      new TableIndex({ name: 'IDX_response_answers_value', columnNames: ['form_id', 'question_id', 'value', 'submitted_at', 'response_id'] }),
    );
    await queryRunner.createIndex(
      'response_answers',
      new TableIndex({
        name: 'IDX_response_answers_num',
        columnNames: ['form_id', 'question_id', 'num', 'submitted_at', 'response_id'],
        where: '"num" IS NOT NULL',
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'response_funnel',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'version', type: 'integer', isPrimary: true },
          { name: 'step', type: 'varchar', isPrimary: true },
          { name: 'count', type: 'bigint', default: 0 },
        ],
        foreignKeys: [
          { name: 'FK_response_funnel_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('response_funnel');
    await queryRunner.dropTable('response_answers');
  }
}
