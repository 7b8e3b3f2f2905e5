import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The cache revision (1739500000000-cache-revision.ts) also goes up when a form is inserted: instances now
 * keep the total of a forms list in memory (docs/decisions.md, "Session 15"), and a new form changes the
 * totals of its owner's and its team's lists. Updates (a form moved to a team, published, renamed) and
 * deletes already bump it. Bumped the same way: deferred to the commit on PostgreSQL. Frozen once released.
 */
const TRIGGER = 'TRG_cache_revision_forms_insert';

export class FormloomCacheRevisionFormInserts1740600000000 implements MigrationInterface {
  name = 'FormloomCacheRevisionFormInserts1740600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    if (postgres) {
      await queryRunner.query(
        `CREATE CONSTRAINT TRIGGER ${q(TRIGGER)} AFTER INSERT ON ${qualified('forms')} ` +
          `DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE PROCEDURE ${qualified('formloom_cache_revision_bump')}()`,
      );
    } else {
      const bump = `UPDATE ${q('cache_revision')} SET ${q('value')} = ${q('value')} + 1 WHERE ${q('id')} = 1`;
      await queryRunner.query(`CREATE TRIGGER ${q(TRIGGER)} AFTER INSERT ON ${q('forms')} BEGIN ${bump}; END`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    await queryRunner.query(`DROP TRIGGER ${q(TRIGGER)}${postgres ? ` ON ${qualified('forms')}` : ''}`);
  }
}

function names(queryRunner: QueryRunner) {
  const q = (name: string) => queryRunner.connection.driver.escape(name);
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  const qualified = (name: string) => (schema ? `${q(schema)}.${q(name)}` : q(name));
  return { q, qualified, postgres: queryRunner.connection.options.type === 'postgres' };
}
