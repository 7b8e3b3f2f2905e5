import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/*
 * Indexes that serve the forms list in its own order (`updated_at DESC, id`): a user's personal forms and
 * a team's forms are read from the index instead of sorted. Frozen once released, like the others.
 */
export class FormloomFormListIndexes1735000000000 implements MigrationInterface {
  name = 'FormloomFormListIndexes1735000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('forms', new TableIndex({ name: 'IDX_forms_owner_list', columnNames: ['owner_id', 'team_id', 'updated_at', 'id'] }));
    await queryRunner.createIndex('forms', new TableIndex({ name: 'IDX_forms_team_list', columnNames: ['team_id', 'updated_at', 'id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('forms', 'IDX_forms_team_list');
    await queryRunner.dropIndex('forms', 'IDX_forms_owner_list');
  }
}
