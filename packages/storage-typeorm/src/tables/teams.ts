import type { Team, TeamMember, TeamMemberProfile } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, pick } from './columns';

/* Teams, their memberships and SSO settings. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface TeamRow {
  id: string;
  name: string;
  slug: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

export const TeamEntity = new EntitySchema<TeamRow>({
  name: 'FormloomTeam',
  tableName: 'teams',
  columns: { id, name: str, slug: str, owner_id: str, created_at: str, updated_at: str },
  indices: [
    // Unique since the third migration (IDX_teams_slug before): a taken slug is a CONFLICT.
    { name: 'UQ_teams_slug', columns: ['slug'], unique: true },
    { name: 'IDX_teams_owner_id', columns: ['owner_id'] },
  ],
});

export interface TeamMemberRow {
  id: string;
  team_id: string;
  user_id: string;
  role: string;
  joined_at: string;
}

export const TeamMemberEntity = new EntitySchema<TeamMemberRow & { team?: TeamRow }>({
  name: 'FormloomTeamMember',
  tableName: 'team_members',
  columns: { id, team_id: str, user_id: str, role: str, joined_at: str },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_members_team_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    { name: 'UQ_team_members_team_user', columns: ['team_id', 'user_id'], unique: true },
    { name: 'IDX_team_members_user_id', columns: ['user_id'] },
  ],
});

export interface TeamSsoRow {
  team_id: string;
  sso_domain_verify_token: string;
}

/**
 * A team's SSO settings beside the team (a row only when there is a token), so adding them rebuilt no
 * `teams` table on SQLite. Goes with the team (ON DELETE CASCADE).
 */
export const TeamSsoEntity = new EntitySchema<TeamSsoRow & { team?: TeamRow }>({
  name: 'FormloomTeamSso',
  tableName: 'team_sso',
  columns: { team_id: id, sso_domain_verify_token: str },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_sso_team_id' },
      onDelete: 'CASCADE',
    },
  },
});

export const teamFromRow = (r: TeamRow): Team => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  owner_id: r.owner_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const teamToRow = (t: Team): TeamRow => teamFromRow(t);

/** The columns of a team patch: only the fields present, unknown keys dropped. */
export const teamPatchToRow = (p: Partial<Pick<Team, 'name' | 'slug' | 'updated_at'>>): Partial<TeamRow> =>
  pick({ name: p.name, slug: p.slug, updated_at: p.updated_at });

export const memberFromRow = (r: TeamMemberRow): TeamMember => ({
  id: r.id,
  team_id: r.team_id,
  user_id: r.user_id,
  role: r.role as TeamMember['role'],
  joined_at: r.joined_at,
});

export const memberToRow = (m: TeamMember): TeamMemberRow => memberFromRow(m);

/** A membership joined with its user's profile columns. */
export const memberProfileFromRow = (
  r: TeamMemberRow & { email: string; first_name: string | null; last_name: string | null },
): TeamMemberProfile => ({
  ...memberFromRow(r),
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
});
