import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Table } from 'typeorm';
import { rebuildQuestionDays } from '../repositories/response-days';
import { queryRunnerDb } from '../sql/db';
import { dialectOf } from '../sql/dialect';

/*
 * The analytics rollup (docs/responses-and-webhooks.md, "Analytics"): one row per form and UTC day of
 * `submitted_at`, created and filled from the responses already stored, in the migration's transaction.
 * The fill is the same recount `formloom analytics rebuild` runs. Also `question_days`, the per-question
 * drop-off counters, filled by that rebuild's keyset scan (their answers are JSON, parsed in JavaScript).
 * Frozen once released, like the others.
 */
export class FormloomResponseDays1737100000000 implements MigrationInterface {
  name = 'FormloomResponseDays1737100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const counter = (name: string) => ({ name, type: 'bigint', default: 0 });
    await queryRunner.createTable(
      new Table({
        name: 'response_days',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'day', type: 'varchar', isPrimary: true },
          counter('total'),
          counter('completed'),
          counter('seconds_sum'),
          counter('seconds_count'),
        ],
        foreignKeys: [
          { name: 'FK_response_days_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'question_days',
        columns: [
          { name: 'form_id', type: 'varchar', isPrimary: true },
          { name: 'day', type: 'varchar', isPrimary: true },
          { name: 'question_id', type: 'varchar', isPrimary: true },
          counter('answered'),
          counter('furthest'),
        ],
        foreignKeys: [
          { name: 'FK_question_days_form_id', columnNames: ['form_id'], referencedTableName: 'forms', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    const seconds = 'CASE WHEN completed_at IS NOT NULL THEN completion_seconds END';
    const table = (name: string) => queryRunner.connection.driver.escape(name);
    const schema = (queryRunner.connection.options as { schema?: string }).schema;
    const qualified = (name: string) => (schema ? `${table(schema)}.${table(name)}` : table(name));
    await queryRunner.query(
      `INSERT INTO ${qualified('response_days')} (form_id, day, total, completed, seconds_sum, seconds_count) ` +
        `SELECT form_id, substr(submitted_at, 1, 10), COUNT(*), COUNT(completed_at), COALESCE(SUM(${seconds}), 0), COUNT(${seconds}) ` +
        `FROM ${qualified('responses')} GROUP BY form_id, substr(submitted_at, 1, 10)`,
    );
    await rebuildQuestionDays(queryRunnerDb(queryRunner), dialectOf(queryRunner.connection), qualified('responses'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('question_days');
    await queryRunner.dropTable('response_days');
  }
}
