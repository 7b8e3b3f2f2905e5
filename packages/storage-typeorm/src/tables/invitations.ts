import type { Invitation } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, text, lowerEmail } from './columns';
import type { TeamRow } from './teams';

/* Team invitations. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface InvitationRow {
  id: string;
  team_id: string;
  /** Lower-case. */
  email: string;
  role: string;
  invited_by: string;
  token_hash: string;
  token_sealed: string;
  status: string;
  language: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** Invitations go with their team (ON DELETE CASCADE). */
export const InvitationEntity = new EntitySchema<InvitationRow & { team?: TeamRow }>({
  name: 'FormloomTeamInvitation',
  tableName: 'team_invitations',
  columns: {
    id,
    team_id: str,
    email: str,
    role: str,
    invited_by: str,
    token_hash: str,
    token_sealed: text,
    status: str,
    language: str,
    expires_at: str,
    created_at: str,
    updated_at: str,
  },
  relations: {
    team: {
      type: 'many-to-one',
      target: 'FormloomTeam',
      joinColumn: { name: 'team_id', foreignKeyConstraintName: 'FK_team_invitations_team_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    { name: 'UQ_team_invitations_token_hash', columns: ['token_hash'], unique: true },
    // Pending (and unexpired) invitations of a team: listing, counting seats; also the cascade from teams.
    { name: 'IDX_team_invitations_team_status_expires', columns: ['team_id', 'status', 'expires_at'] },
    { name: 'IDX_team_invitations_team_email', columns: ['team_id', 'email'] },
  ],
});

export const invitationFromRow = (r: InvitationRow): Invitation => ({
  id: r.id,
  team_id: r.team_id,
  email: r.email,
  role: r.role as Invitation['role'],
  invited_by: r.invited_by,
  token_hash: r.token_hash,
  token_sealed: r.token_sealed,
  status: r.status as Invitation['status'],
  language: r.language,
  expires_at: r.expires_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** The email is stored lower-case (the port's contract), as the look-ups by email compare it. */
export const invitationToRow = (i: Invitation): InvitationRow => ({
  ...invitationFromRow(i),
  email: lowerEmail(i.email),
});
