import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';

/*
 * Signing sessions (docs/signing.md): sessions, signer slots, sealed documents and the audit chain. New
 * tables only; names match src/tables/signing.ts. Frozen once released: helpers repeated, not shared.
 */

const pk = (name: string): TableColumnOptions => ({ name, type: 'varchar', isPrimary: true });
const str = (name: string): TableColumnOptions => ({ name, type: 'varchar' });
const optStr = (name: string): TableColumnOptions => ({ name, type: 'varchar', isNullable: true });
const text = (name: string): TableColumnOptions => ({ name, type: 'text' });
const optText = (name: string): TableColumnOptions => ({ name, type: 'text', isNullable: true });
const bool = (name: string): TableColumnOptions => ({ name, type: 'boolean' });
const int = (name: string): TableColumnOptions => ({ name, type: 'integer' });
const optInt = (name: string): TableColumnOptions => ({ name, type: 'integer', isNullable: true });
const index = (name: string, columnNames: string[], isUnique = false) => new TableIndex({ name, columnNames, isUnique });
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
      name: 'signing_sessions',
      columns: [
        pk('id'), str('form_id'), str('created_by'), str('status'), str('signing_order'), str('expires_at'),
        bool('hide_other_signers'), str('copy_mode'), optText('password_hash'), bool('require_email_verification'),
        text('notify_emails'), text('notify_events'), optText('custom_email_body'), str('created_at'), str('updated_at'),
        optStr('voided_at'), optText('void_reason'), optStr('completed_at'), optStr('expiry_notified_at'),
      ],
      foreignKeys: [cascadeTo('FK_signing_sessions_form_id', 'form_id', 'forms')],
    }),
    indices: [
      index('IDX_signing_sessions_form_created', ['form_id', 'created_at']),
      index('IDX_signing_sessions_status_expires', ['status', 'expires_at']),
    ],
  },
  {
    table: new Table({
      name: 'signing_slots',
      columns: [
        { name: 'session_id', type: 'varchar', isPrimary: true }, { name: 'slot_number', type: 'integer', isPrimary: true },
        text('slot_label'), str('short_code'), optText('first_name'), optText('last_name'), optText('email'), str('status'),
        optText('signature'), bool('send_copy'), optStr('viewed_at'), optStr('viewed_ip'), optText('viewed_user_agent'),
        optStr('signed_at'), optStr('signed_ip'), optText('signed_user_agent'), optStr('declined_at'), optText('decline_reason'),
        optStr('code_hash'), optStr('code_expires_at'), int('code_attempts'), int('code_sends'), optStr('email_verified_at'),
        str('updated_at'),
      ],
      foreignKeys: [cascadeTo('FK_signing_slots_session_id', 'session_id', 'signing_sessions')],
    }),
    indices: [index('UQ_signing_slots_short_code', ['short_code'], true)],
  },
  {
    table: new Table({
      name: 'signed_documents',
      columns: [
        pk('id'), str('session_id'), str('question_id'), text('question_title'), str('kind'), text('pdf_base64'),
        str('document_hash'), str('generated_at'),
      ],
      foreignKeys: [cascadeTo('FK_signed_documents_session_id', 'session_id', 'signing_sessions')],
    }),
    indices: [
      index('UQ_signed_documents_session_question_kind', ['session_id', 'question_id', 'kind'], true),
      index('IDX_signed_documents_hash', ['document_hash']),
    ],
  },
  {
    table: new Table({
      name: 'signing_audit_entries',
      columns: [
        pk('id'), str('session_id'), int('seq'), str('action'), str('timestamp'), optInt('slot_number'), optText('actor_email'),
        optText('actor_name'), optStr('ip_address'), optText('user_agent'), text('details'), optStr('prev_hash'), str('hash'),
      ],
      foreignKeys: [cascadeTo('FK_signing_audit_entries_session_id', 'session_id', 'signing_sessions')],
    }),
    indices: [index('UQ_signing_audit_entries_session_seq', ['session_id', 'seq'], true)],
  },
];

export class FormloomSigning1737020000000 implements MigrationInterface {
  name = 'FormloomSigning1737020000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, indices } of buildTables()) {
      await queryRunner.createTable(table);
      for (const i of indices) await queryRunner.createIndex(table.name, i);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table, indices } of buildTables().reverse()) {
      for (const i of indices) await queryRunner.dropIndex(table.name, i.name!);
      await queryRunner.dropTable(table.name);
    }
  }
}
