import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The language a response was answered in (docs/languages.md "Responses"): nullable, null for what was stored
 * before. Frozen once released, like the others.
 */
export class FormloomResponseLanguage1742100000000 implements MigrationInterface {
  name = 'FormloomResponseLanguage1742100000000';

  // ADD COLUMN, not TypeORM's addColumn: on SQLite that would copy the whole table.
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${tableName(queryRunner)('responses')} ADD COLUMN language varchar NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${tableName(queryRunner)('responses')} DROP COLUMN language`);
  }
}

function tableName(queryRunner: QueryRunner) {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const schema = queryRunner.connection.options.type === 'postgres' ? (queryRunner.connection.options as { schema?: string }).schema : undefined;
  return (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
}
