import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Table } from 'typeorm';

/*
 * Answer distributions for the per-question summaries (docs/responses-and-webhooks.md, "Question
 * summaries"): counts per form, UTC day, question and value. Created empty: responses stored before this
 * migration are counted by `formloom analytics rebuild` (docs/operations), which the upgrade notes name.
 * Frozen once released, like the others.
 */
export class FormloomQuestionValues1739800000000 implements MigrationInterface {
  name = 'FormloomQuestionValues1739800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'question_values',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'day', type: 'varchar', isPrimary: true },
          { name: 'question_id', type: 'varchar', isPrimary: true },
          { name: 'value', type: 'varchar', isPrimary: true },
          { name: 'count', type: 'bigint', default: 0 },
        ],
        foreignKeys: [
          { name: 'FK_question_values_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('question_values');
  }
}
