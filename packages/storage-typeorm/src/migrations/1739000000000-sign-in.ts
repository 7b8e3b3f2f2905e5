import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

/*
 * People who sign in (docs/accounts.md): passwords, the instance's admin slot, browser sessions, one-time
 * tokens (mailed links and passkey challenges) and passkeys; API keys get a name chosen on the account
 * page. New tables and one nullable column: nothing existing is rebuilt. Frozen once released, like the others.
 */
export class FormloomSignIn1739000000000 implements MigrationInterface {
  name = 'FormloomSignIn1739000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const v = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'varchar', ...extra });
    const t = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'text', ...extra });
    await queryRunner.createTable(
      new Table({ name: 'user_passwords', columns: [v('user_id', { isPrimary: true }), v('password_hash'), v('updated_at')] }),
    );
    await queryRunner.createTable(
      new Table({ name: 'instance_claims', columns: [v('name', { isPrimary: true }), v('user_id'), v('claimed_at')] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sign_in_sessions',
        columns: [
          v('id', { isPrimary: true }),
          v('user_id'),
          v('token_hash'),
          v('created_at'),
          v('last_seen_at'),
          v('expires_at'),
          v('user_agent', { isNullable: true }),
          v('ip_address', { isNullable: true }),
        ],
      }),
    );
    await queryRunner.createIndex('sign_in_sessions', new TableIndex({ name: 'UQ_sign_in_sessions_token_hash', columnNames: ['token_hash'], isUnique: true }));
    await queryRunner.createIndex('sign_in_sessions', new TableIndex({ name: 'IDX_sign_in_sessions_user_id', columnNames: ['user_id'] }));
    await queryRunner.createIndex('sign_in_sessions', new TableIndex({ name: 'IDX_sign_in_sessions_expires_at', columnNames: ['expires_at'] }));
    await queryRunner.createTable(
      new Table({
        name: 'one_time_tokens',
        columns: [
          v('id', { isPrimary: true }),
          v('token_hash'),
          v('purpose'),
          v('user_id', { isNullable: true }),
          t('data', { isNullable: true }),
          v('created_at'),
          v('expires_at'),
          v('used_at', { isNullable: true }),
        ],
      }),
    );
    await queryRunner.createIndex('one_time_tokens', new TableIndex({ name: 'UQ_one_time_tokens_token_hash', columnNames: ['token_hash'], isUnique: true }));
    await queryRunner.createIndex('one_time_tokens', new TableIndex({ name: 'IDX_one_time_tokens_user_purpose', columnNames: ['user_id', 'purpose'] }));
    await queryRunner.createIndex('one_time_tokens', new TableIndex({ name: 'IDX_one_time_tokens_expires_at', columnNames: ['expires_at'] }));
    await queryRunner.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          v('id', { isPrimary: true }),
          v('user_id'),
          v('credential_id'),
          t('public_key'),
          { name: 'counter', type: 'integer' },
          t('transports'),
          v('name'),
          v('created_at'),
          v('last_used_at', { isNullable: true }),
        ],
      }),
    );
    await queryRunner.createIndex('passkeys', new TableIndex({ name: 'UQ_passkeys_credential_id', columnNames: ['credential_id'], isUnique: true }));
    await queryRunner.createIndex('passkeys', new TableIndex({ name: 'IDX_passkeys_user_id', columnNames: ['user_id'] }));
    // ADD COLUMN, not TypeORM's addColumn: on SQLite that would copy the whole table.
    await queryRunner.query(`ALTER TABLE ${tableName(queryRunner)('api_keys')} ADD COLUMN name varchar NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${tableName(queryRunner)('api_keys')} DROP COLUMN name`);
    for (const table of ['passkeys', 'one_time_tokens', 'sign_in_sessions', 'instance_claims', 'user_passwords']) await queryRunner.dropTable(table);
  }
}

function tableName(queryRunner: QueryRunner) {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const schema = queryRunner.connection.options.type === 'postgres' ? (queryRunner.connection.options as { schema?: string }).schema : undefined;
  return (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
}
