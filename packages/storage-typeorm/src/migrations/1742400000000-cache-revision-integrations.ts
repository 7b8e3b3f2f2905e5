import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The cache revision (1739500000000-cache-revision.ts) also covers a form's integrations, which instances now
 * keep in memory per form for the submissions' deliveries (docs/decisions.md, "Caches checked against a
 * revision"): every insert, update and delete of `integrations` bumps it, deferred to the commit on
 * PostgreSQL like the others. Owners change integrations rarely; deliveries live in another table.
 */
const EVENTS = ['INSERT', 'UPDATE', 'DELETE'] as const;

const triggerName = (event: string) => `TRG_cache_revision_integrations_${event.toLowerCase()}`;

export class FormloomCacheRevisionIntegrations1742400000000 implements MigrationInterface {
  name = 'FormloomCacheRevisionIntegrations1742400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    const bump = `UPDATE ${qualified('cache_revision')} SET ${q('value')} = ${q('value')} + 1 WHERE ${q('id')} = 1`;
    for (const event of EVENTS) {
      if (postgres) {
        await queryRunner.query(
          `CREATE CONSTRAINT TRIGGER ${q(triggerName(event))} AFTER ${event} ON ${qualified('integrations')} ` +
            `DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE PROCEDURE ${qualified('formloom_cache_revision_bump')}()`,
        );
      } else {
        await queryRunner.query(`CREATE TRIGGER ${q(triggerName(event))} AFTER ${event} ON ${q('integrations')} BEGIN ${bump}; END`);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    for (const event of EVENTS) {
      await queryRunner.query(`DROP TRIGGER ${q(triggerName(event))}${postgres ? ` ON ${qualified('integrations')}` : ''}`);
    }
  }
}

function names(queryRunner: QueryRunner) {
  const q = (name: string) => queryRunner.connection.driver.escape(name);
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  const qualified = (name: string) => (schema ? `${q(schema)}.${q(name)}` : q(name));
  return { q, qualified, postgres: queryRunner.connection.options.type === 'postgres' };
}
