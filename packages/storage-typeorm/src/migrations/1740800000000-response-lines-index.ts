import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * On SQLite, an index that holds each response's stored CSV line in the export's order
 * (docs/decisions.md, "Session 15"): the export's pages of lines are read from it alone, without a lookup
 * of each row in the table, whose rows also carry the answers and metadata (about 1.6 kB each against
 * 250 bytes of line). PostgreSQL's export reads the table in one COPY and gets nothing from it, so it is
 * not made there. Declared in the entity with `synchronize: false`. Frozen once released, like the others.
 */
export class FormloomResponseLinesIndex1740800000000 implements MigrationInterface {
  name = 'FormloomResponseLinesIndex1740800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'sqlite') return;
    await queryRunner.query(
      `CREATE INDEX "IDX_responses_form_lines" ON "responses" ("form_id", "submitted_at", "id", "csv_layout", "csv_line")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'sqlite') return;
    await queryRunner.query(`DROP INDEX "IDX_responses_form_lines"`);
  }
}
