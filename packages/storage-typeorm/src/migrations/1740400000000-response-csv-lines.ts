import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * Each response's CSV export line, written with the response (docs/responses-and-webhooks.md, "How the
 * CSV export is fast"): `csv_line` is the line as the export writes it for the columns named by the key
 * `csv_layout`. Null for what was stored before, which the export formats from the answers as it always
 * did. Frozen once released, like the others.
 */
export class FormloomResponseCsvLines1740400000000 implements MigrationInterface {
  name = 'FormloomResponseCsvLines1740400000000';

  // ADD COLUMN, not TypeORM's addColumn: on SQLite that would copy the whole table.
  async up(queryRunner: QueryRunner): Promise<void> {
    const t = tableName(queryRunner);
    await queryRunner.query(`ALTER TABLE ${t('responses')} ADD COLUMN csv_layout varchar NULL`);
    await queryRunner.query(`ALTER TABLE ${t('responses')} ADD COLUMN csv_line text NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const t = tableName(queryRunner);
    await queryRunner.query(`ALTER TABLE ${t('responses')} DROP COLUMN csv_line`);
    await queryRunner.query(`ALTER TABLE ${t('responses')} DROP COLUMN csv_layout`);
  }
}

function tableName(queryRunner: QueryRunner) {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const schema = queryRunner.connection.options.type === 'postgres' ? (queryRunner.connection.options as { schema?: string }).schema : undefined;
  return (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
}
