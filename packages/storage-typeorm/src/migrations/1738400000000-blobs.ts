import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The PostgreSQL blob store's tables (createPostgresBlobStore, docs/scaling.md): `blobs` maps a key to the
 * blob it names now, `blob_chunks` holds each blob's bytes in pieces of a few hundred KiB. A key's collation
 * is "C", so a folder's `LIKE 'prefix%'` uses the primary key's index whatever the database's collation.
 * The pieces are stored uncompressed (STORAGE EXTERNAL): audio, PDFs and most uploads are compressed
 * already. PostgreSQL only: SQLite databases get nothing. Frozen once released, like the others.
 */
export class FormloomBlobs1738400000000 implements MigrationInterface {
  name = 'FormloomBlobs1738400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    const t = tableName(queryRunner);
    await queryRunner.query(
      `CREATE TABLE ${t('blobs')} (key text COLLATE "C" NOT NULL PRIMARY KEY, blob_id varchar NOT NULL, ` +
        `content_type text NOT NULL, size bigint NOT NULL, pieces integer NOT NULL, stored_at timestamptz NOT NULL DEFAULT now())`,
    );
    await queryRunner.query(
      `CREATE TABLE ${t('blob_chunks')} (blob_id varchar NOT NULL, seq integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (blob_id, seq))`,
    );
    await queryRunner.query(`ALTER TABLE ${t('blob_chunks')} ALTER COLUMN data SET STORAGE EXTERNAL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    const t = tableName(queryRunner);
    await queryRunner.query(`DROP TABLE ${t('blob_chunks')}`);
    await queryRunner.query(`DROP TABLE ${t('blobs')}`);
  }
}

function tableName(queryRunner: QueryRunner) {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  return (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
}
