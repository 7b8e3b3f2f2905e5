import { FormloomError, type Team, type TeamMember, type TeamRepository } from '@formloom/core';
import { type TeamMemberRow, TeamMemberEntity, type TeamRow, TeamEntity } from '../entities';
import { memberFromRow, memberToRow, teamFromRow, teamToRow } from '../mappers';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';

export const teamStatements = (d: Dialect) => {
  const teams = tableOf(d, TeamEntity);
  const members = tableOf(d, TeamMemberEntity);
  return {
    insertTeam: insertIgnoring(d, TeamEntity),
    insertMember: insertIgnoring(d, TeamMemberEntity),
    teamById: `SELECT * FROM ${teams} WHERE id = ${d.p(1)}`,
    membershipsOf: `SELECT * FROM ${members} WHERE user_id = ${d.p(1)} ORDER BY joined_at, id`,
    member: `SELECT * FROM ${members} WHERE team_id = ${d.p(1)} AND user_id = ${d.p(2)}`,
  };
};

export class SqlTeamRepository implements TeamRepository {
  constructor(private readonly scope: Scope) {}

  async findById(id: string): Promise<Team | null> {
    const [row] = await this.scope.db.all<TeamRow>(this.scope.st.teams.teamById, [id]);
    return row ? teamFromRow(row) : null;
  }

  async membershipsOf(userId: string): Promise<TeamMember[]> {
    const rows = await this.scope.db.all<TeamMemberRow>(this.scope.st.teams.membershipsOf, [userId]);
    return rows.map(memberFromRow);
  }

  async findMember(teamId: string, userId: string): Promise<TeamMember | null> {
    const [row] = await this.scope.db.all<TeamMemberRow>(this.scope.st.teams.member, [teamId, userId]);
    return row ? memberFromRow(row) : null;
  }

  async insert(team: Team): Promise<void> {
    const { sql, values } = this.scope.st.teams.insertTeam;
    if ((await this.scope.db.run(sql, values(teamToRow(team)))) === 0) {
      throw new FormloomError('CONFLICT', `Team ${team.id} already exists`);
    }
  }

  /** Throws CONFLICT when the user is already a member of the team (or the id is taken). */
  async insertMember(member: TeamMember): Promise<void> {
    const { sql, values } = this.scope.st.teams.insertMember;
    if ((await this.scope.db.run(sql, values(memberToRow(member)))) === 0) {
      throw new FormloomError('CONFLICT', 'The user is already a member of this team');
    }
  }
}
