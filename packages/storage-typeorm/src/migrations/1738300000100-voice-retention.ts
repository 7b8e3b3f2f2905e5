import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/*
 * Reuse, retention and retakes of voice generations (docs/voice.md): the columns they query by, filled
 * from the stored records (generations made before this migration get no `request_hash`, so they are never
 * reused), and the free retakes table. Frozen once released, like the others.
 */
export class FormloomVoiceRetention1738300000100 implements MigrationInterface {
  name = 'FormloomVoiceRetention1738300000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const optional = (name: string) => new TableColumn({ name, type: 'varchar', isNullable: true });
    await queryRunner.addColumns('voice_generations', [
      optional('key_ref'),
      optional('request_hash'),
      optional('status'),
      optional('retained_until'),
      optional('audio_deleted_at'),
      new TableColumn({ name: 'billed_characters', type: 'integer', default: 0 }),
    ]);
    const schema = (queryRunner.connection.options as { schema?: string }).schema;
    const table = schema ? `"${schema}"."voice_generations"` : '"voice_generations"';
    const postgres = queryRunner.connection.options.type === 'postgres';
    const field = (name: string) => (postgres ? `(record::json ->> '${name}')` : `json_extract(record, '$.${name}')`);
    const number = (name: string) => (postgres ? `(record::json ->> '${name}')::integer` : `json_extract(record, '$.${name}')`);
    await queryRunner.query(
      `UPDATE ${table} SET key_ref = COALESCE(${field('key_id')}, 'user:' || user_id), status = ${field('status')}, ` +
        `retained_until = ${field('retained_until')}, ` +
        `billed_characters = CASE WHEN ${number('credits_charged')} > 0 AND ${field('status')} <> 'failed' THEN ${number('characters')} ELSE 0 END`,
    );
    await queryRunner.createIndex('voice_generations', new TableIndex({ name: 'IDX_voice_generations_reuse', columnNames: ['user_id', 'request_hash', 'created_at'] }));
    await queryRunner.createIndex('voice_generations', new TableIndex({ name: 'IDX_voice_generations_retention', columnNames: ['retained_until'] }));
    await queryRunner.createIndex('voice_generations', new TableIndex({ name: 'IDX_voice_generations_key', columnNames: ['key_ref', 'created_at'] }));
    await queryRunner.createTable(
      new Table({
        name: 'voice_retakes',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'generation_id', type: 'varchar' },
          { name: 'key_ref', type: 'varchar' },
          { name: 'characters', type: 'integer' },
          { name: 'created_at', type: 'varchar' },
        ],
      }),
    );
    await queryRunner.createIndex('voice_retakes', new TableIndex({ name: 'IDX_voice_retakes_generation', columnNames: ['generation_id'] }));
    await queryRunner.createIndex('voice_retakes', new TableIndex({ name: 'IDX_voice_retakes_key', columnNames: ['key_ref', 'created_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('voice_retakes');
    for (const name of ['IDX_voice_generations_reuse', 'IDX_voice_generations_retention', 'IDX_voice_generations_key']) {
      await queryRunner.dropIndex('voice_generations', name);
    }
    for (const name of ['key_ref', 'request_hash', 'status', 'retained_until', 'audio_deleted_at', 'billed_characters']) {
      await queryRunner.dropColumn('voice_generations', name);
    }
  }
}
