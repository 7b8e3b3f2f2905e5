import type { TeamBranding } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, optStr, optText, orNull } from './columns';
import type { TeamRow } from './teams';

/* A team's branding. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface BrandingRow {
  team_id: string;
  logo_url: string | null;
  primary_color: string | null;
  background_color: string | null;
  text_color: string | null;
  font_family: string | null;
  footer_text: string | null;
}

/** One row per team that set a branding; goes with the team (ON DELETE CASCADE). */
export const BrandingEntity = new EntitySchema<BrandingRow & { team?: TeamRow }>({
  name: 'FormloomTeamBranding',
  tableName: 'team_branding',
  columns: {
    team_id: id,
    logo_url: optText,
    primary_color: optStr,
    background_color: optStr,
    text_color: optStr,
    font_family: optStr,
    footer_text: optText,
  },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_branding_team_id' },
      onDelete: 'CASCADE',
    },
  },
});

export const brandingFromRow = (r: BrandingRow): TeamBranding => ({
  logo_url: r.logo_url,
  primary_color: r.primary_color,
  background_color: r.background_color,
  text_color: r.text_color,
  font_family: r.font_family,
  footer_text: r.footer_text,
});

export const brandingToRow = (teamId: string, b: TeamBranding): BrandingRow => ({
  team_id: teamId,
  logo_url: orNull(b.logo_url),
  primary_color: orNull(b.primary_color),
  background_color: orNull(b.background_color),
  text_color: orNull(b.text_color),
  font_family: orNull(b.font_family),
  footer_text: orNull(b.footer_text),
});
