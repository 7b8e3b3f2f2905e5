import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The cache revision (1739500000000-cache-revision.ts) also covers what decides a completed response's
 * webhook targets, which instances now keep in memory (docs/decisions.md, "Session 10"): the account-wide
 * webhooks (`global_webhooks`, every insert, update and delete), a user's plan (`users`, an update that
 * changes `plan`, and a delete) and who owns a team (`teams`, an update that changes `owner_id`, and a
 * delete). Bumped the same way: deferred to the commit on PostgreSQL. Frozen once released, like the others.
 */
const BUMPS: Array<{ table: string; event: 'INSERT' | 'UPDATE' | 'DELETE'; column?: string }> = [
  { table: 'global_webhooks', event: 'INSERT' },
  { table: 'global_webhooks', event: 'UPDATE' },
  { table: 'global_webhooks', event: 'DELETE' },
  { table: 'users', event: 'UPDATE', column: 'plan' },
  { table: 'users', event: 'DELETE' },
  { table: 'teams', event: 'UPDATE', column: 'owner_id' },
  { table: 'teams', event: 'DELETE' },
];

const triggerName = (table: string, event: string) => `TRG_cache_revision_${table}_${event.toLowerCase()}`;

export class FormloomCacheRevisionTargets1740200000000 implements MigrationInterface {
  name = 'FormloomCacheRevisionTargets1740200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    const bump = `UPDATE ${qualified('cache_revision')} SET ${q('value')} = ${q('value')} + 1 WHERE ${q('id')} = 1`;
    for (const { table, event, column } of BUMPS) {
      const of = column ? ` OF ${q(column)}` : '';
      if (postgres) {
        const when = column ? `WHEN (OLD.${q(column)} IS DISTINCT FROM NEW.${q(column)}) ` : '';
        await queryRunner.query(
          `CREATE CONSTRAINT TRIGGER ${q(triggerName(table, event))} AFTER ${event}${of} ON ${qualified(table)} ` +
            `DEFERRABLE INITIALLY DEFERRED FOR EACH ROW ${when}EXECUTE PROCEDURE ${qualified('formloom_cache_revision_bump')}()`,
        );
      } else {
        const when = column ? `WHEN OLD.${q(column)} IS NOT NEW.${q(column)} ` : '';
        await queryRunner.query(`CREATE TRIGGER ${q(triggerName(table, event))} AFTER ${event}${of} ON ${q(table)} ${when}BEGIN ${bump}; END`);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    for (const { table, event } of BUMPS) {
      await queryRunner.query(`DROP TRIGGER ${q(triggerName(table, event))}${postgres ? ` ON ${qualified(table)}` : ''}`);
    }
  }
}

function names(queryRunner: QueryRunner) {
  const q = (name: string) => queryRunner.connection.driver.escape(name);
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  const qualified = (name: string) => (schema ? `${q(schema)}.${q(name)}` : q(name));
  return { q, qualified, postgres: queryRunner.connection.options.type === 'postgres' };
}
