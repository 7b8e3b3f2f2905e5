import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * Who made each API key (`made_by`: `owner` from the account's own session, `operator` by the CLI or the
 * host's code; docs/security.md "An address claimed before its owner"): the first proof of an address
 * revokes only the owner's keys. Keys stored before get their maker from what could have made them: a key
 * of an unverified account that has no password and no passkey can only be the operator's (the account
 * page needs a session, and every way to one without a password or passkey proves the address); the
 * others count as the owner's, which keeps the stricter rule where it cannot be told. Only unverified
 * accounts are ever asked. Frozen once released, like the others.
 */
export class FormloomApiKeyMakers1741000000000 implements MigrationInterface {
  name = 'FormloomApiKeyMakers1741000000000';

  // ADD COLUMN, not TypeORM's addColumn: on SQLite that would copy the whole table.
  async up(queryRunner: QueryRunner): Promise<void> {
    const t = tableName(queryRunner);
    await queryRunner.query(`ALTER TABLE ${t('api_keys')} ADD COLUMN made_by varchar NOT NULL DEFAULT 'owner'`);
    await queryRunner.query(
      `UPDATE ${t('api_keys')} SET made_by = 'operator' WHERE user_id IN (
         SELECT u.id FROM ${t('users')} u
         WHERE NOT u.email_verified
           AND NOT EXISTS (SELECT 1 FROM ${t('user_passwords')} p WHERE p.user_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM ${t('passkeys')} k WHERE k.user_id = u.id))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${tableName(queryRunner)('api_keys')} DROP COLUMN made_by`);
  }
}

function tableName(queryRunner: QueryRunner) {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const schema = queryRunner.connection.options.type === 'postgres' ? (queryRunner.connection.options as { schema?: string }).schema : undefined;
  return (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
}
