import {
  FormloomError,
  type Team,
  type TeamMember,
  type TeamMemberProfile,
  type TeamRepository,
  type TeamRole,
} from '@formloom/core';
import { UserEntity } from '../tables/accounts';
import { type TeamMemberRow, TeamMemberEntity, type TeamRow, TeamEntity, TeamSsoEntity, memberFromRow, memberProfileFromRow, memberToRow, teamFromRow, teamPatchToRow, teamToRow } from '../tables/teams';
import type { Scope } from '../scope';
import type { Db } from '../sql/db';
import { type Dialect, isUniqueViolation } from '../sql/dialect';
import { insertIgnoring, tableOf, updateReturning } from '../sql/statements';

export const teamStatements = (d: Dialect) => {
  const teams = tableOf(d, TeamEntity);
  const members = tableOf(d, TeamMemberEntity);
  const users = tableOf(d, UserEntity);
  const sso = tableOf(d, TeamSsoEntity);
  return {
    insertTeam: insertIgnoring(d, TeamEntity),
    insertMember: insertIgnoring(d, TeamMemberEntity),
    insertSso: `INSERT INTO ${sso} (team_id, sso_domain_verify_token) VALUES (${d.p(1)}, ${d.p(2)})`,
    teamById: `SELECT * FROM ${teams} WHERE id = ${d.p(1)}`,
    ssoToken: `SELECT sso_domain_verify_token FROM ${sso} WHERE team_id = ${d.p(1)}`,
    /**
     * Memberships, invitations, branding and the SSO token go by ON DELETE CASCADE (SQLite: TypeORM's driver
     * turns foreign keys on); forms have no key to teams and stay, as do audit events.
     */
    deleteTeam: `DELETE FROM ${teams} WHERE id = ${d.p(1)}`,
    membershipsOf: `SELECT * FROM ${members} WHERE user_id = ${d.p(1)} ORDER BY joined_at, id`,
    member: `SELECT * FROM ${members} WHERE team_id = ${d.p(1)} AND user_id = ${d.p(2)}`,
    memberById: `SELECT * FROM ${members} WHERE team_id = ${d.p(1)} AND id = ${d.p(2)}`,
    memberCount: `SELECT COUNT(*) AS n FROM ${members} WHERE team_id = ${d.p(1)}`,
    /** One query: the user's memberships (IDX_team_members_user_id), each team and its member count. */
    listForUser:
      `SELECT t.*, m.role AS member_role, ` +
      `(SELECT COUNT(*) FROM ${members} c WHERE c.team_id = t.id) AS member_count ` +
      `FROM ${members} m JOIN ${teams} t ON t.id = m.team_id ` +
      `WHERE m.user_id = ${d.p(1)} ORDER BY t.name, t.id`,
    listMembers:
      `SELECT m.*, u.email, u.first_name, u.last_name FROM ${members} m JOIN ${users} u ON u.id = m.user_id ` +
      `WHERE m.team_id = ${d.p(1)} ORDER BY m.joined_at, m.id`,
    updateMemberRole: `UPDATE ${members} SET role = ${d.p(3)} WHERE team_id = ${d.p(1)} AND id = ${d.p(2)} RETURNING *`,
    deleteMember: `DELETE FROM ${members} WHERE team_id = ${d.p(1)} AND id = ${d.p(2)}`,
    /**
     * PostgreSQL: the team row stays locked until the transaction ends, so a second transaction's lock
     * waits, then its (READ COMMITTED) reads see what the first committed. SQLite: none needed, the
     * adapter runs one transaction at a time (BEGIN IMMEDIATE across processes).
     */
    lock: d.kind === 'postgres' ? `SELECT id FROM ${teams} WHERE id = ${d.p(1)} FOR UPDATE` : null,
  };
};

const slugTaken = () => new FormloomError('CONFLICT', 'A team with this slug already exists', { field: 'slug' });

export class SqlTeamRepository implements TeamRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(teamStatements);
  }

  async findById(id: string): Promise<Team | null> {
    const [row] = await this.scope.db.all<TeamRow>(this.st.teamById, [id]);
    return row ? teamFromRow(row) : null;
  }

  async membershipsOf(userId: string): Promise<TeamMember[]> {
    const rows = await this.scope.db.all<TeamMemberRow>(this.st.membershipsOf, [userId]);
    return rows.map(memberFromRow);
  }

  async findMember(teamId: string, userId: string): Promise<TeamMember | null> {
    const [row] = await this.scope.db.all<TeamMemberRow>(this.st.member, [teamId, userId]);
    return row ? memberFromRow(row) : null;
  }

  /**
   * A taken id or slug changes no row and is a CONFLICT. With a token, the team and its `team_sso` row are
   * inserted in one transaction (the current one inside a transaction).
   */
  async insert(team: Team, extra?: { sso_domain_verify_token?: string | null }): Promise<void> {
    const token = extra?.sso_domain_verify_token ?? null;
    const st = this.st;
    const work = async (db: Db) => {
      if ((await db.run(st.insertTeam.sql, st.insertTeam.values(teamToRow(team)))) === 0) {
        const [taken] = await db.all<TeamRow>(st.teamById, [team.id]);
        throw taken ? new FormloomError('CONFLICT', `Team ${team.id} already exists`) : slugTaken();
      }
      if (token !== null) await db.run(st.insertSso, [team.id, token]);
    };
    await (token === null ? work(this.scope.db) : this.scope.atomic(work));
  }

  /** Throws CONFLICT when the user is already a member of the team (or the id is taken). */
  async insertMember(member: TeamMember): Promise<void> {
    const { sql, values } = this.st.insertMember;
    if ((await this.scope.db.run(sql, values(memberToRow(member)))) === 0) {
      throw new FormloomError('CONFLICT', 'The user is already a member of this team');
    }
  }

  /** A taken slug is the unique index's error, turned into CONFLICT (on PostgreSQL it ends the transaction). */
  async update(id: string, patch: Partial<Pick<Team, 'name' | 'slug' | 'updated_at'>>): Promise<Team | null> {
    const statement = updateReturning(this.scope.d, TeamEntity, teamPatchToRow(patch), 'id', id);
    if (!statement) return this.findById(id);
    try {
      const [row] = await this.scope.db.all<TeamRow>(statement.sql, statement.values);
      return row ? teamFromRow(row) : null;
    } catch (err) {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deleteTeam, [id])) > 0;
  }

  async ssoDomainVerifyToken(id: string): Promise<string | null> {
    const [row] = await this.scope.db.all<{ sso_domain_verify_token: string }>(this.st.ssoToken, [id]);
    return row?.sso_domain_verify_token ?? null;
  }

  async listForUser(userId: string): Promise<Array<{ team: Team; role: TeamRole; member_count: number }>> {
    const rows = await this.scope.db.all<TeamRow & { member_role: string; member_count: number | string }>(
      this.st.listForUser,
      [userId],
    );
    return rows.map((r) => ({ team: teamFromRow(r), role: r.member_role as TeamRole, member_count: Number(r.member_count) }));
  }

  async memberCount(teamId: string): Promise<number> {
    const [row] = await this.scope.db.all<{ n: number | string }>(this.st.memberCount, [teamId]);
    return Number(row.n);
  }

  async listMembers(teamId: string): Promise<TeamMemberProfile[]> {
    const rows = await this.scope.db.all<TeamMemberRow & { email: string; first_name: string | null; last_name: string | null }>(
      this.st.listMembers,
      [teamId],
    );
    return rows.map(memberProfileFromRow);
  }

  async findMemberById(teamId: string, memberId: string): Promise<TeamMember | null> {
    const [row] = await this.scope.db.all<TeamMemberRow>(this.st.memberById, [teamId, memberId]);
    return row ? memberFromRow(row) : null;
  }

  async updateMemberRole(teamId: string, memberId: string, role: TeamRole): Promise<TeamMember | null> {
    const [row] = await this.scope.db.all<TeamMemberRow>(this.st.updateMemberRole, [teamId, memberId, role]);
    return row ? memberFromRow(row) : null;
  }

  async deleteMember(teamId: string, memberId: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deleteMember, [teamId, memberId])) > 0;
  }

  async lock(teamId: string): Promise<void> {
    const sql = this.st.lock;
    if (sql) await this.scope.db.all(sql, [teamId]);
  }
}
