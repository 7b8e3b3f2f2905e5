import type { Team, TeamMember, TeamMemberProfile, TeamRole } from '../../domain/types';

/** Teams and their memberships. A user is a member of a team at most once. */
export interface TeamRepository {
  /** The team, or `null` when there is none. */
  findById(id: string): Promise<Team | null>;
  /** The user's memberships in all teams; `[]` when there are none. */
  membershipsOf(userId: string): Promise<TeamMember[]>;
  /** The user's membership in the team, or `null`. */
  findMember(teamId: string, userId: string): Promise<TeamMember | null>;
  /**
   * Inserts a team, with its SSO domain verification token when `extra` carries one (not part of `Team`:
   * read it with `ssoDomainVerifyToken`). Team and token are written together or not at all.
   * @throws `FormloomError` CONFLICT when the id or the slug is taken; nothing is written.
   */
  insert(team: Team, extra?: { sso_domain_verify_token?: string | null }): Promise<void>;
  /**
   * Inserts a membership.
   * @throws `FormloomError` CONFLICT when the user is already a member of the team (or the id is taken):
   * of concurrent inserts for one user and team exactly one succeeds.
   */
  insertMember(member: TeamMember): Promise<void>;
  /**
   * Applies `name`, `slug` and `updated_at` from the patch (other keys are ignored); an empty patch returns
   * the team unchanged. The SSO token stays.
   * @returns the updated team, or `null` when there is none.
   * @throws `FormloomError` CONFLICT when the new slug is another team's; nothing is written.
   */
  update(id: string, patch: Partial<Pick<Team, 'name' | 'slug' | 'updated_at'>>): Promise<Team | null>;
  /**
   * Deletes the team with its memberships, invitations, branding and SSO token, atomically. Its forms and
   * its audit events stay.
   * @returns `false` when there was no such team.
   */
  delete(id: string): Promise<boolean>;
  /** The team's SSO domain verification token, or `null` when it has none or there is no such team. */
  ssoDomainVerifyToken(id: string): Promise<string | null>;
  /** The teams the user belongs to, with the user's role and each team's member count, by team name then id. */
  listForUser(userId: string): Promise<Array<{ team: Team; role: TeamRole; member_count: number }>>;
  /** How many members the team has; 0 for no such team. */
  memberCount(teamId: string): Promise<number>;
  /** Members with their users' profiles, by `joined_at` (the owner first), ties by id. */
  listMembers(teamId: string): Promise<TeamMemberProfile[]>;
  /** A membership by its id, only when it belongs to `teamId`; otherwise `null`. */
  findMemberById(teamId: string, memberId: string): Promise<TeamMember | null>;
  /**
   * Sets a member's role.
   * @returns the updated membership, or `null` when `memberId` is no membership of `teamId`.
   */
  updateMemberRole(teamId: string, memberId: string, role: TeamRole): Promise<TeamMember | null>;
  /**
   * Deletes a membership of `teamId`.
   * @returns `false` when `memberId` is no membership of that team (a membership elsewhere stays).
   */
  deleteMember(teamId: string, memberId: string): Promise<boolean>;
  /**
   * Inside a transaction, holds the team until commit (PostgreSQL `SELECT ... FOR UPDATE`; SQLite's
   * serialised transactions need nothing), so that a seat or duplicate check followed by an insert is
   * atomic: of concurrent transactions that lock, check and insert, no two see the same count. Outside a
   * transaction, and for an unknown team, it does nothing and does not throw.
   */
  lock(teamId: string): Promise<void>;
}
