import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * The credit ledger and voice generations (docs/voice.md, "Billing"). Existing balances become one
 * `purchase` entry each, so every balance equals the sum of its user's entries from here on. Frozen once
 * released, like the others.
 */
export class FormloomVoice1737040000000 implements MigrationInterface {
  name = 'FormloomVoice1737040000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'credit_entries',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'user_id', type: 'varchar' },
          { name: 'kind', type: 'varchar' },
          { name: 'amount', type: 'integer' },
          { name: 'generation_id', type: 'varchar', isNullable: true },
          { name: 'key_id', type: 'varchar', isNullable: true },
          { name: 'created_at', type: 'varchar' },
        ],
      }),
    );
    // One spend and one credit-back per generation at most (NULL generation ids never collide).
    await queryRunner.createIndex('credit_entries', new TableIndex({ name: 'UQ_credit_entries_generation_kind', columnNames: ['generation_id', 'kind'], isUnique: true }));
    await queryRunner.createIndex('credit_entries', new TableIndex({ name: 'IDX_credit_entries_user', columnNames: ['user_id', 'created_at'] }));
    await queryRunner.createIndex('credit_entries', new TableIndex({ name: 'IDX_credit_entries_key', columnNames: ['key_id', 'created_at'] }));
    const schema = (queryRunner.connection.options as { schema?: string }).schema;
    const name = (table: string) => (schema ? `"${schema}"."${table}"` : `"${table}"`);
    const [balances, entries] = [name('credit_balances'), name('credit_entries')];
    await queryRunner.query(
      `INSERT INTO ${entries} (id, user_id, kind, amount, generation_id, key_id, created_at) ` +
        `SELECT 'cre_opening_' || user_id, user_id, 'purchase', balance, NULL, NULL, '${new Date(0).toISOString()}' FROM ${balances} WHERE balance <> 0`,
    );
    await queryRunner.createTable(
      new Table({
        name: 'voice_generations',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'user_id', type: 'varchar' },
          { name: 'created_at', type: 'varchar' },
          { name: 'record', type: 'text' },
        ],
      }),
    );
    await queryRunner.createIndex('voice_generations', new TableIndex({ name: 'IDX_voice_generations_user', columnNames: ['user_id', 'created_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('voice_generations');
    await queryRunner.dropTable('credit_entries');
  }
}
