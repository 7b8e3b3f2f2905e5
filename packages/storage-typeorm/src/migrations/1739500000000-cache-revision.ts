import type { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The cache revision (docs/decisions.md, "Caches checked against a revision"): one row whose value the
 * database itself bumps whenever something the instances keep in memory changes, so that whoever changes
 * it (another instance, the CLI, a host's SQL) every instance sees it at its next read. Bumped by:
 * - forms: every update but a count-only one (the forms repository changes `response_count` alone, and
 *   nothing else ever does so together with other columns) and every delete;
 * - questions, team_members: every insert, update and delete; api_keys: every update and delete.
 * On PostgreSQL the triggers are deferred to the commit, so the counter row is the last lock a transaction
 * takes (held only while it commits): two writers can never wait for each other through it.
 * On PostgreSQL, it also adds the outbox's NOTIFY (channel `formloom_outbox`, sent at commit, once per
 * transaction), which wakes the workers of other instances at once (sql/pg-listen.ts).
 * Frozen once released, like the others.
 */
const BUMPS: Array<{ table: string; events: Array<'INSERT' | 'UPDATE' | 'DELETE'>; whenCountOnly?: boolean }> = [
  { table: 'forms', events: ['UPDATE'], whenCountOnly: true },
  { table: 'forms', events: ['DELETE'] },
  { table: 'questions', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'team_members', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'api_keys', events: ['UPDATE', 'DELETE'] },
];

const triggerName = (table: string, event: string) => `TRG_cache_revision_${table}_${event.toLowerCase()}`;

export class FormloomCacheRevision1739500000000 implements MigrationInterface {
  name = 'FormloomCacheRevision1739500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    await queryRunner.query(`CREATE TABLE ${qualified('cache_revision')} (${q('id')} integer PRIMARY KEY NOT NULL, ${q('value')} integer NOT NULL)`);
    await queryRunner.query(`INSERT INTO ${qualified('cache_revision')} (${q('id')}, ${q('value')}) VALUES (1, 0)`);
    const bump = `UPDATE ${qualified('cache_revision')} SET ${q('value')} = ${q('value')} + 1 WHERE ${q('id')} = 1`;
    if (postgres) {
      await queryRunner.query(
        `CREATE OR REPLACE FUNCTION ${qualified('formloom_cache_revision_bump')}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump}; RETURN NULL; END $$`,
      );
      await queryRunner.query(
        `CREATE OR REPLACE FUNCTION ${qualified('formloom_outbox_notify')}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('formloom_outbox', ''); RETURN NULL; END $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER ${q('TRG_outbox_notify')} AFTER INSERT ON ${qualified('outbox')} FOR EACH STATEMENT EXECUTE PROCEDURE ${qualified('formloom_outbox_notify')}()`,
      );
    }
    for (const { table, events, whenCountOnly } of BUMPS) {
      for (const event of events) {
        const when = whenCountOnly ? `OLD.${q('response_count')} IS NOT DISTINCT FROM NEW.${q('response_count')}` : '';
        if (postgres) {
          await queryRunner.query(
            `CREATE CONSTRAINT TRIGGER ${q(triggerName(table, event))} AFTER ${event} ON ${qualified(table)} ` +
              `DEFERRABLE INITIALLY DEFERRED FOR EACH ROW ${when ? `WHEN (${when}) ` : ''}EXECUTE PROCEDURE ${qualified('formloom_cache_revision_bump')}()`,
          );
        } else {
          await queryRunner.query(
            `CREATE TRIGGER ${q(triggerName(table, event))} AFTER ${event} ON ${q(table)} ` +
              `${when ? `WHEN ${when.replace('IS NOT DISTINCT FROM', 'IS')} ` : ''}BEGIN ${bump}; END`,
          );
        }
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { q, qualified, postgres } = names(queryRunner);
    for (const { table, events } of BUMPS) {
      for (const event of events) {
        await queryRunner.query(`DROP TRIGGER ${q(triggerName(table, event))}${postgres ? ` ON ${qualified(table)}` : ''}`);
      }
    }
    if (postgres) {
      await queryRunner.query(`DROP TRIGGER ${q('TRG_outbox_notify')} ON ${qualified('outbox')}`);
      await queryRunner.query(`DROP FUNCTION ${qualified('formloom_outbox_notify')}()`);
      await queryRunner.query(`DROP FUNCTION ${qualified('formloom_cache_revision_bump')}()`);
    }
    await queryRunner.query(`DROP TABLE ${qualified('cache_revision')}`);
  }
}

function names(queryRunner: QueryRunner) {
  const q = (name: string) => queryRunner.connection.driver.escape(name);
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  const qualified = (name: string) => (schema ? `${q(schema)}.${q(name)}` : q(name));
  return { q, qualified, postgres: queryRunner.connection.options.type === 'postgres' };
}
