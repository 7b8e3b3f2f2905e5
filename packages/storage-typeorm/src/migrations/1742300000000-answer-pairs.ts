import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Table } from 'typeorm';

/*
 * Filtered summaries from pair counts (issue 37; docs/decisions.md, "Filtered summaries from pair counts"):
 * `answer_pairs`, per form and choice-like answer, the counts of what the same responses answered. Created
 * empty: a form whose responses are not all counted there (its responses stored before this migration) keeps
 * the scan until `formloom analytics rebuild` counts them, as the read checks. Frozen once released.
 */
export class FormloomAnswerPairs1742300000000 implements MigrationInterface {
  name = 'FormloomAnswerPairs1742300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const count = (name: string) => ({ name, type: 'bigint', default: 0 });
    await queryRunner.createTable(
      new Table({
        name: 'answer_pairs',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'question_id', type: 'varchar', isPrimary: true },
          { name: 'value', type: 'varchar', isPrimary: true },
          { name: 'target_id', type: 'varchar', isPrimary: true },
          { name: 'target_value', type: 'varchar', isPrimary: true },
          count('n'),
          count('completed'),
          { name: 'seconds_sum', type: 'double precision', default: 0 },
          count('seconds_count'),
        ],
        foreignKeys: [
          { name: 'FK_answer_pairs_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('answer_pairs');
  }
}
