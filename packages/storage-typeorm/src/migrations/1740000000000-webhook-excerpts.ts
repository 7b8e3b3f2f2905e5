import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The start of each receiver's answer in the webhook delivery log (docs/responses-and-webhooks.md): per
 * attempt, and the last one on the delivery that the log lists. Null for what was stored before. Frozen
 * once released, like the others.
 */
export class FormloomWebhookExcerpts1740000000000 implements MigrationInterface {
  name = 'FormloomWebhookExcerpts1740000000000';

  // ADD COLUMN, not TypeORM's addColumn: on SQLite that would copy the whole table.
  async up(queryRunner: QueryRunner): Promise<void> {
    const t = tableName(queryRunner);
    await queryRunner.query(`ALTER TABLE ${t('webhook_deliveries')} ADD COLUMN last_response_excerpt text NULL`);
    await queryRunner.query(`ALTER TABLE ${t('webhook_delivery_attempts')} ADD COLUMN response_excerpt text NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const t = tableName(queryRunner);
    await queryRunner.query(`ALTER TABLE ${t('webhook_delivery_attempts')} DROP COLUMN response_excerpt`);
    await queryRunner.query(`ALTER TABLE ${t('webhook_deliveries')} DROP COLUMN last_response_excerpt`);
  }
}

function tableName(queryRunner: QueryRunner) {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const schema = queryRunner.connection.options.type === 'postgres' ? (queryRunner.connection.options as { schema?: string }).schema : undefined;
  return (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
}
