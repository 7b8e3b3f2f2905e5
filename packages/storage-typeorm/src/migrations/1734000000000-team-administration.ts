import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';

/*
 * Team administration: unique team slugs, the SSO domain verification token, invitations, branding and
 * the audit log. Table API as in the earlier migrations (which stay as they shipped), so it runs on SQLite
 * and PostgreSQL. Names match src/entities.ts. Migrations are frozen once released: the helpers are
 * repeated here, not shared.
 *
 * The token lives in a side table rather than a new `teams` column: TypeORM adds (and drops) a column on
 * SQLite by rebuilding the table, and dropping the old `teams` while foreign keys are on (a revert, or a run
 * without a transaction per migration) would cascade-delete every `team_members` row. Only new tables and
 * indexes here: nothing existing is rebuilt.
 */

const pk = (name: string): TableColumnOptions => ({ name, type: 'varchar', isPrimary: true });
const str = (name: string): TableColumnOptions => ({ name, type: 'varchar' });
const optStr = (name: string): TableColumnOptions => ({ name, type: 'varchar', isNullable: true });
const text = (name: string): TableColumnOptions => ({ name, type: 'text' });
const optText = (name: string): TableColumnOptions => ({ name, type: 'text', isNullable: true });

const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

const cascadeTo = (name: string, column: string, referencedTableName: string) => ({
  name,
  columnNames: [column],
  referencedTableName,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/** Built per run: TypeORM mutates the Table objects it is given. */
const buildTables = (): { table: Table; indices: TableIndex[] }[] => [
  {
    table: new Table({
      name: 'team_sso',
      columns: [pk('team_id'), str('sso_domain_verify_token')],
      foreignKeys: [cascadeTo('FK_team_sso_team_id', 'team_id', 'teams')],
    }),
    indices: [],
  },
  {
    table: new Table({
      name: 'team_invitations',
      columns: [
        pk('id'), str('team_id'), str('email'), str('role'), str('invited_by'), str('token_hash'), text('token_sealed'),
        str('status'), str('language'), str('expires_at'), str('created_at'), str('updated_at'),
      ],
      foreignKeys: [cascadeTo('FK_team_invitations_team_id', 'team_id', 'teams')],
    }),
    indices: [
      index('UQ_team_invitations_token_hash', ['token_hash'], true),
      index('IDX_team_invitations_team_status_expires', ['team_id', 'status', 'expires_at']),
      index('IDX_team_invitations_team_email', ['team_id', 'email']),
    ],
  },
  {
    table: new Table({
      name: 'team_branding',
      columns: [
        pk('team_id'), optText('logo_url'), optStr('primary_color'), optStr('background_color'), optStr('text_color'),
        optStr('font_family'), optText('footer_text'),
      ],
      foreignKeys: [cascadeTo('FK_team_branding_team_id', 'team_id', 'teams')],
    }),
    indices: [],
  },
  {
    // No foreign key on team_id: a team's audit events outlive it and never block its deletion.
    table: new Table({
      name: 'audit_logs',
      columns: [
        pk('id'), str('team_id'), str('action'), optStr('user_id'), optStr('user_email'), text('details'),
        optStr('ip_address'), str('timestamp'),
      ],
    }),
    indices: [
      index('IDX_audit_logs_team_timestamp', ['team_id', 'timestamp', 'id']),
      index('IDX_audit_logs_team_action', ['team_id', 'action']),
    ],
  },
];

export class FormloomTeamAdministration1734000000000 implements MigrationInterface {
  name = 'FormloomTeamAdministration1734000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Fails on a database that already holds two teams with one slug: rename one, then migrate again.
    await queryRunner.dropIndex('teams', 'IDX_teams_slug');
    await queryRunner.createIndex('teams', index('UQ_teams_slug', ['slug'], true));
    for (const { table, indices } of buildTables()) {
      await queryRunner.createTable(table);
      for (const i of indices) await queryRunner.createIndex(table.name, i);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of buildTables().reverse()) await queryRunner.dropTable(table.name);
    await queryRunner.dropIndex('teams', 'UQ_teams_slug');
    await queryRunner.createIndex('teams', index('IDX_teams_slug', ['slug']));
  }
}
