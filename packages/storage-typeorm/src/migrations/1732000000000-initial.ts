import { type MigrationInterface, type QueryRunner, Table, TableIndex, type TableColumnOptions } from 'typeorm';

/*
 * Written with the QueryRunner Table API, not SQL, so the one migration runs on SQLite and PostgreSQL.
 * Index and constraint names match src/entities.ts.
 */

const pk = (name: string): TableColumnOptions => ({ name, type: 'varchar', isPrimary: true });
const str = (name: string): TableColumnOptions => ({ name, type: 'varchar' });
const optStr = (name: string): TableColumnOptions => ({ name, type: 'varchar', isNullable: true });
const text = (name: string): TableColumnOptions => ({ name, type: 'text' });
const optText = (name: string): TableColumnOptions => ({ name, type: 'text', isNullable: true });
const bool = (name: string): TableColumnOptions => ({ name, type: 'boolean' });
const int = (name: string): TableColumnOptions => ({ name, type: 'integer' });
const optInt = (name: string): TableColumnOptions => ({ name, type: 'integer', isNullable: true });

const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

const cascadeTo = (name: string, column: string, referencedTableName: string) => ({
  name,
  columnNames: [column],
  referencedTableName,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/** Built per run: TypeORM mutates the Table objects it is given, and data sources may share a process. */
const buildTables = (): { table: Table; indices: TableIndex[] }[] => [
  {
    table: new Table({
      name: 'users',
      columns: [
        pk('id'), str('email'), str('email_lower'), optStr('first_name'), optStr('last_name'), str('plan'),
        bool('email_verified'), str('created_at'), str('updated_at'),
      ],
    }),
    indices: [index('UQ_users_email_lower', ['email_lower'], true)],
  },
  {
    table: new Table({
      name: 'api_keys',
      columns: [
        pk('id'), str('user_id'), str('secret_hash'), str('scope'), optInt('monthly_limit'), str('created_at'),
        optStr('revoked_at'), optStr('expires_at'),
      ],
    }),
    indices: [index('IDX_api_keys_user_id', ['user_id'])],
  },
  {
    table: new Table({
      name: 'forms',
      columns: [
        pk('id'), str('owner_id'), optStr('team_id'), str('slug'), text('title'), text('title_search'),
        optText('description'), bool('published'), bool('has_unpublished_changes'), optStr('published_version_id'),
        int('response_count'), optStr('theme_color'), optStr('background_color'), text('options'),
        str('created_at'), str('updated_at'),
      ],
    }),
    indices: [
      index('UQ_forms_slug', ['slug'], true),
      index('IDX_forms_owner_id', ['owner_id']),
      index('IDX_forms_team_id', ['team_id']),
    ],
  },
  {
    table: new Table({
      name: 'questions',
      columns: [
        { name: 'form_id', type: 'varchar', isPrimary: true }, pk('id'), str('type'), text('title'),
        optText('description'), bool('required'), int('sort_order'), text('properties'), text('logic_jumps'),
        text('validations'),
      ],
      foreignKeys: [cascadeTo('FK_questions_form_id', 'form_id', 'forms')],
    }),
    indices: [index('IDX_questions_form_order', ['form_id', 'sort_order'])],
  },
  {
    table: new Table({
      name: 'form_versions',
      columns: [
        pk('id'), str('form_id'), int('version'), str('published_by'), optStr('published_by_name'),
        str('created_at'), text('changelog'), text('snapshot'),
      ],
      foreignKeys: [cascadeTo('FK_form_versions_form_id', 'form_id', 'forms')],
    }),
    indices: [index('UQ_form_versions_form_version', ['form_id', 'version'], true)],
  },
  {
    table: new Table({
      name: 'teams',
      columns: [pk('id'), str('name'), str('slug'), str('owner_id'), str('created_at'), str('updated_at')],
    }),
    indices: [index('IDX_teams_slug', ['slug']), index('IDX_teams_owner_id', ['owner_id'])],
  },
  {
    table: new Table({
      name: 'team_members',
      columns: [pk('id'), str('team_id'), str('user_id'), str('role'), str('joined_at')],
      foreignKeys: [cascadeTo('FK_team_members_team_id', 'team_id', 'teams')],
    }),
    indices: [
      index('UQ_team_members_team_user', ['team_id', 'user_id'], true),
      index('IDX_team_members_user_id', ['user_id']),
    ],
  },
  {
    table: new Table({ name: 'credit_balances', columns: [pk('user_id'), int('balance')] }),
    indices: [],
  },
  {
    table: new Table({
      name: 'idempotency_keys',
      columns: [pk('key'), str('owner'), str('status'), optText('result'), str('created_at'), str('expires_at')],
    }),
    indices: [],
  },
  {
    table: new Table({
      name: 'outbox',
      columns: [
        pk('id'), str('kind'), text('payload'), str('status'), int('attempts'), str('next_attempt_at'),
        optStr('locked_by'), optStr('locked_until'), optText('last_error'), str('created_at'), str('updated_at'),
      ],
    }),
    indices: [index('IDX_outbox_status_next_attempt', ['status', 'next_attempt_at'])],
  },
];

export class FormloomInitial1732000000000 implements MigrationInterface {
  name = 'FormloomInitial1732000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, indices } of buildTables()) {
      await queryRunner.createTable(table);
      for (const i of indices) await queryRunner.createIndex(table.name, i);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of buildTables().reverse()) await queryRunner.dropTable(table.name);
  }
}
