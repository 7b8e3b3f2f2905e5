import type { BrandingRepository, TeamBranding } from '@formloom/core';
import { columnsOf } from '../tables/columns';
import { type BrandingRow, BrandingEntity, brandingFromRow, brandingToRow } from '../tables/branding';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

export const brandingStatements = (d: Dialect) => {
  const branding = tableOf(d, BrandingEntity);
  const columns = columnsOf(BrandingEntity);
  const fields = columns.filter((c) => c !== 'team_id');
  return {
    columns,
    get: `SELECT * FROM ${branding} WHERE team_id = ${d.p(1)}`,
    /** One upsert: the whole branding replaces any stored one, also under concurrent puts. */
    put:
      `INSERT INTO ${branding} (${columns.join(', ')}) VALUES (${columns.map((_, i) => d.p(i + 1)).join(', ')}) ` +
      `ON CONFLICT (team_id) DO UPDATE SET ${fields.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    delete: `DELETE FROM ${branding} WHERE team_id = ${d.p(1)}`,
  };
};

export class SqlBrandingRepository implements BrandingRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(brandingStatements);
  }

  async get(teamId: string): Promise<TeamBranding | null> {
    const [row] = await this.scope.db.all<BrandingRow>(this.st.get, [teamId]);
    return row ? brandingFromRow(row) : null;
  }

  /** A team that does not exist violates the foreign key (on PostgreSQL that ends the transaction). */
  async put(teamId: string, branding: TeamBranding): Promise<void> {
    const { columns, put } = this.st;
    const row = brandingToRow(teamId, branding);
    await this.scope.db.run(put, columns.map((c) => row[c as keyof BrandingRow]));
  }

  async delete(teamId: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.delete, [teamId])) > 0;
  }
}
