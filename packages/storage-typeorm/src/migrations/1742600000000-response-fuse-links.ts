import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * A partial index of the responses that name another through a Fuse (`fused_from` / `fused_to` in their
 * metadata, docs/logic.md "Fuse"): whether a form's export has the link columns is one look into it
 * (`hasFuseLinks`), where without it the check read every response of the form (about 55 ms over 100,000 on
 * SQLite, before the export's first byte). It holds only linked responses, so it costs nothing to forms
 * without a Fuse. The query repeats its condition word for word, which is what lets both databases use it.
 * Declared in the entity with `synchronize: false`. Frozen once released, like the others.
 */
export class FormloomResponseFuseLinks1742600000000 implements MigrationInterface {
  name = 'FormloomResponseFuseLinks1742600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_responses_fuse_links" ON "responses" ("form_id") WHERE metadata LIKE '%"fused_%'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_responses_fuse_links"`);
  }
}
