import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/*
 * Values an installation records once, at its first start, and checks at every later one: the secret-key
 * canary (docs/operations.md, "Secret key"). A new table only. Frozen once released, like the others.
 */
export class FormloomInstanceSettings1737000000000 implements MigrationInterface {
  name = 'FormloomInstanceSettings1737000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'instance_settings',
        columns: [
          { name: 'name', type: 'varchar', isPrimary: true },
          { name: 'value', type: 'text' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('instance_settings');
  }
}
