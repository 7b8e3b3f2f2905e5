import { inject, injectable } from 'tsyringe';
import { forbidden, notFound } from '../errors';
import type { Principal, Team, TeamBranding, TeamRole } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { Plans } from '../ports/plans';
import { MANAGERS, requireTeamRole } from './team-access';
import { brandingSchema, createTeamSchema, memberRoleSchema, TEAM_READ_ONLY_FIELDS, updateTeamSchema } from './team-schemas';
import { parseBody } from '../parse';
import { TOKENS } from '../tokens';
import { AuditService } from './audit-service';

const EMPTY_BRANDING: TeamBranding = {
  logo_url: null,
  primary_color: null,
  background_color: null,
  text_color: null,
  font_family: null,
  footer_text: null,
};

const slugify = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 40) || 'team';

export function presentTeam(team: Team) {
  return { id: team.id, name: team.name, slug: team.slug, owner_id: team.owner_id, created_at: team.created_at, updated_at: team.updated_at };
}

/** Teams, their members and branding, under the role rules of docs/teams.md and docs/decisions.md ("Access"). */
@injectable()
export class TeamService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(TOKENS.Plans) private readonly plans: Plans,
  ) {}

  /** `sso_domain_verify_token` goes only to owners and admins. */
  private async withSecrets(team: Team, role: TeamRole, extra: Record<string, unknown> = {}) {
    const out: Record<string, unknown> = { ...presentTeam(team), ...extra };
    if (MANAGERS.includes(role)) out.sso_domain_verify_token = await this.storage.teams.ssoDomainVerifyToken(team.id);
    return out;
  }

  async list(principal: Principal) {
    const rows = await this.storage.teams.listForUser(principal.user_id);
    return {
      teams: await Promise.all(rows.map((r) => this.withSecrets(r.team, r.role, { member_count: r.member_count, your_role: r.role }))),
    };
  }

  /** POST /teams: the caller becomes the owner. */
  async create(principal: Principal, body: unknown) {
    const { name } = parseBody(createTeamSchema, body, TEAM_READ_ONLY_FIELDS);
    const now = this.clock.now().toISOString();
    const team: Team = {
      id: this.ids.id('team'),
      name,
      slug: `${slugify(name)}-${this.ids.secret(3)}`,
      owner_id: principal.user_id,
      created_at: now,
      updated_at: now,
    };
    const token = `formloom-verify=${this.ids.secret(16)}`;
    await this.storage.transaction(async (tx) => {
      await tx.teams.insert(team, { sso_domain_verify_token: token });
      await tx.teams.insertMember({ id: this.ids.id('mem'), team_id: team.id, user_id: principal.user_id, role: 'owner', joined_at: now });
      await this.audit.record(tx, team.id, 'team.created', principal, { name });
    });
    return { ...presentTeam(team), sso_domain_verify_token: token };
  }

  async get(principal: Principal, teamId: string) {
    const { team, member } = await requireTeamRole(this.storage, principal, teamId, 'any');
    const member_count = await this.storage.teams.memberCount(teamId);
    // Seats as the invitation check counts them (members plus unexpired pending invitations, docs/teams.md).
    const pending = await this.storage.invitations.countPending(teamId, this.clock.now().toISOString());
    const { seats } = await this.plans.featuresFor(team.owner_id);
    return this.withSecrets(team, member.role, { member_count, seats: { used: member_count + pending, limit: seats } });
  }

  async rename(principal: Principal, teamId: string, body: unknown) {
    const { team, member } = await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    const { name } = parseBody(updateTeamSchema, body, TEAM_READ_ONLY_FIELDS);
    const updated = await this.storage.transaction(async (tx) => {
      if (name === team.name) return team;
      const t = await tx.teams.update(teamId, { name, updated_at: this.clock.now().toISOString() });
      // Deleted since it was read (a concurrent DELETE): the 404 a moment later would give.
      if (!t) throw notFound('Team not found');
      await this.audit.record(tx, teamId, 'team.renamed', principal, { from: team.name, to: name });
      return t;
    });
    return this.withSecrets(updated, member.role, { member_count: await this.storage.teams.memberCount(teamId) });
  }

  /** Owner only: memberships, invitations and branding go; the team's forms stay, reachable by no one. */
  async delete(principal: Principal, teamId: string) {
    await requireTeamRole(this.storage, principal, teamId, ['owner']);
    await this.storage.transaction(async (tx) => {
      await this.audit.record(tx, teamId, 'team.deleted', principal);
      await tx.teams.delete(teamId);
    });
    return { success: true };
  }

  async members(principal: Principal, teamId: string) {
    await requireTeamRole(this.storage, principal, teamId, 'any');
    const members = await this.storage.teams.listMembers(teamId);
    return {
      members: members.map((m) => ({
        id: m.id,
        user_id: m.user_id,
        email: m.email,
        first_name: m.first_name,
        last_name: m.last_name,
        role: m.role,
        joined_at: m.joined_at,
      })),
    };
  }

  async changeRole(principal: Principal, teamId: string, memberId: string, body: unknown) {
    await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    const { role } = parseBody(memberRoleSchema, body);
    const target = await this.storage.teams.findMemberById(teamId, memberId);
    if (!target) throw notFound('Member');
    if (target.role === 'owner') throw forbidden("The owner's role cannot be changed", { reason: 'owner_role_immutable' });
    const updated = await this.storage.transaction(async (tx) => {
      const m = await tx.teams.updateMemberRole(teamId, memberId, role);
      if (!m) throw notFound('Member');
      if (target.role !== role) {
        await this.audit.record(tx, teamId, 'member.role_changed', principal, { member_id: memberId, user_id: target.user_id, from: target.role, to: role });
      }
      return m;
    });
    return { id: updated.id, user_id: updated.user_id, team_id: updated.team_id, role: updated.role, joined_at: updated.joined_at };
  }

  /** Removes a member (never the owner) and cancels their pending invitations to this team. */
  async removeMember(principal: Principal, teamId: string, memberId: string) {
    await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    const target = await this.storage.teams.findMemberById(teamId, memberId);
    if (!target) throw notFound('Member');
    if (target.role === 'owner') throw forbidden('The team owner cannot be removed', { reason: 'owner_cannot_be_removed' });
    const user = await this.storage.users.findById(target.user_id);
    await this.storage.transaction(async (tx) => {
      if (!(await tx.teams.deleteMember(teamId, memberId))) throw notFound('Member');
      const now = this.clock.now().toISOString();
      const cancelled = user ? await tx.invitations.cancelForEmail(teamId, user.email, now) : 0;
      await this.audit.record(tx, teamId, 'member.removed', principal, { member_id: memberId, user_id: target.user_id, invitations_cancelled: cancelled });
    });
    return { success: true, message: 'Member removed from the team' };
  }

  async branding(principal: Principal, teamId: string) {
    await requireTeamRole(this.storage, principal, teamId, 'any');
    return (await this.storage.branding.get(teamId)) ?? EMPTY_BRANDING;
  }

  async updateBranding(principal: Principal, teamId: string, body: unknown) {
    await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    const input = parseBody(brandingSchema, body);
    return this.storage.transaction(async (tx) => {
      const current = (await tx.branding.get(teamId)) ?? EMPTY_BRANDING;
      const next = { ...current } as TeamBranding;
      for (const [k, v] of Object.entries(input)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
      await tx.branding.put(teamId, next);
      await this.audit.record(tx, teamId, 'branding.updated', principal, { fields: Object.keys(input) });
      return next;
    });
  }

  async deleteBranding(principal: Principal, teamId: string) {
    await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    await this.storage.transaction(async (tx) => {
      await tx.branding.delete(teamId);
      await this.audit.record(tx, teamId, 'branding.deleted', principal);
    });
    return { success: true };
  }
}
