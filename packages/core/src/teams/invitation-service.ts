import { inject, injectable } from 'tsyringe';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { Invitation, Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { MANAGERS, requireTeamRole } from './team-access';
import { inviteSchema } from './team-schemas';
import { parseBody } from '../parse';
import type { FormloomConfig } from '../config';
import type { SecretBox } from '../crypto-box';
import type { FormloomEvents } from '../events';
import { TOKENS } from '../tokens';
import { sha256Hex as sha256 } from '../hashing';
import { AuditService } from './audit-service';
import { enqueueMail } from '../outbox/mail-handler';
import { presentTeam } from './team-service';

const INVITATION_DAYS = 7;

/** An invitation as its token's holder sees it before accepting (InvitationService.publicView). */
export interface PublicInvitation {
  team_name: string;
  role: Invitation['role'];
  /** The inviter's name, else their email; `null` when their account is gone. */
  invited_by_name: string | null;
  expires_at: string;
  status: Invitation['status'] | 'expired';
}

/** Invitations by email: create (seat-checked), list, cancel, accept. */
@injectable()
export class InvitationService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  private present(inv: Invitation, withToken: boolean) {
    const token = this.box.open(inv.token_sealed);
    const out: Record<string, unknown> = {
      id: inv.id,
      team_id: inv.team_id,
      email: inv.email,
      role: inv.role,
      invited_by: inv.invited_by,
      status: inv.status,
      language: inv.language,
      expires_at: inv.expires_at,
      created_at: inv.created_at,
    };
    if (withToken) {
      out.token = token;
      out.invite_url = `/teams/invite/${token}`;
    }
    return out;
  }

  /**
   * POST invitations and POST members: 409 when the address is a member or has an unexpired pending
   * invitation, 400 when the team owner's plan has no seat left (members + unexpired pending invitations).
   * The invitation email is queued in the same transaction.
   */
  async create(principal: Principal, teamId: string, body: unknown) {
    const { team } = await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    const input = parseBody(inviteSchema, body);
    const email = input.email.toLowerCase();
    const { seats } = await this.plans.featuresFor(team.owner_id);
    const inviter = await this.storage.users.findById(principal.user_id);
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const token = this.ids.secret(32);
    const invitation: Invitation = {
      id: this.ids.id('inv'),
      team_id: teamId,
      email,
      role: input.role,
      invited_by: principal.user_id,
      token_hash: sha256(token),
      token_sealed: this.box.seal(token),
      status: 'pending',
      language: input.language ?? 'en',
      expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
      created_at: nowIso,
      updated_at: nowIso,
    };
    await this.storage.transaction(async (tx) => {
      await tx.teams.lock(teamId);
      const existing = await tx.users.findByEmail(email);
      if (existing && (await tx.teams.findMember(teamId, existing.id))) {
        throw conflict(`${email} is already a member of this team`, { reason: 'already_member' });
      }
      if (await tx.invitations.findPendingByEmail(teamId, email, nowIso)) {
        throw conflict(`${email} already has a pending invitation`, { reason: 'invitation_pending' });
      }
      if (seats !== null) {
        const used = (await tx.teams.memberCount(teamId)) + (await tx.invitations.countPending(teamId, nowIso));
        if (used >= seats) {
          throw badRequest(`No seat left: the team owner's plan has ${seats} seats (members and pending invitations)`, {
            reason: 'no_seats_left',
            field: 'email',
          });
        }
      }
      await tx.invitations.insert(invitation);
      // The invited address rides along so the sign-up form opened from the invitation page is prefilled with it
      // (the mail goes to that address: the link tells its reader nothing new).
      const link = `${this.config.publicUrl.replace(/\/+$/, '')}/teams/invite/${token}?email=${encodeURIComponent(email)}`;
      const who = inviter ? [inviter.first_name, inviter.last_name].filter(Boolean).join(' ') || inviter.email : 'A team admin';
      await enqueueMail(tx, this.ids, this.clock, this.box, {
        to: email,
        subject: `${who} invited you to join ${team.name} on Formloom`,
        text: [
          `${who} invited you to join the team "${team.name}" on Formloom as ${input.role}.`,
          '',
          `Open this link to accept: ${link}`,
          '',
          `Then sign in with ${email}, or create your account with this address if you have none yet:`,
          'you join the team as soon as you are in.',
          '',
          `The invitation expires on ${invitation.expires_at.slice(0, 10)}.`,
        ].join('\n'),
      });
      await this.audit.record(tx, teamId, 'member.invited', principal, { invitation_id: invitation.id, email, role: input.role });
    });
    this.events.emit('outbox.enqueued', { kind: 'mail' });
    return this.present(invitation, true);
  }

  async list(principal: Principal, teamId: string) {
    const { member } = await requireTeamRole(this.storage, principal, teamId, 'any');
    const invitations = await this.storage.invitations.listPending(teamId, this.clock.now().toISOString());
    return { invitations: invitations.map((i) => this.present(i, MANAGERS.includes(member.role))) };
  }

  async cancel(principal: Principal, teamId: string, invitationId: string) {
    await requireTeamRole(this.storage, principal, teamId, MANAGERS);
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      const inv = await tx.invitations.findById(teamId, invitationId);
      if (!inv || inv.status !== 'pending' || !(await tx.invitations.settle(inv.id, 'cancelled', now))) throw notFound('Invitation');
      await this.audit.record(tx, teamId, 'invitation.cancelled', principal, { invitation_id: inv.id, email: inv.email });
    });
    return { success: true, message: 'Invitation cancelled' };
  }

  /**
   * What the invitation page (`/teams/invite/<token>`, docs/teams.md) shows to whoever holds the token: the
   * team's name, the role, who invited (name, else email), expiry and status (`expired` for a pending one
   * past `expires_at`). No ids and not the invited address. NOT_FOUND for an unknown or malformed token.
   */
  async publicView(token: string): Promise<PublicInvitation> {
    const inv = /^[0-9a-f]{64}$/.test(token) ? await this.storage.invitations.findByTokenHash(sha256(token)) : null;
    const team = inv ? await this.storage.teams.findById(inv.team_id) : null;
    if (!inv || !team) throw notFound('Invitation');
    const inviter = await this.storage.users.findById(inv.invited_by);
    const expired = inv.status === 'pending' && inv.expires_at <= this.clock.now().toISOString();
    return {
      team_name: team.name,
      role: inv.role,
      invited_by_name: inviter ? [inviter.first_name, inviter.last_name].filter(Boolean).join(' ') || inviter.email : null,
      expires_at: inv.expires_at,
      status: expired ? 'expired' : inv.status,
    };
  }

  /** The caller (whose email must be the invited one) joins with the invited role. */
  async accept(principal: Principal, token: string) {
    const inv = /^[0-9a-f]{64}$/.test(token) ? await this.storage.invitations.findByTokenHash(sha256(token)) : null;
    const now = this.clock.now().toISOString();
    if (!inv || inv.status !== 'pending' || inv.expires_at <= now) throw notFound('Invitation');
    const user = await this.storage.users.findById(principal.user_id);
    if (!user || user.email.toLowerCase() !== inv.email) throw forbidden('This invitation was sent to another email address', { reason: 'email_mismatch' });
    const team = await this.storage.teams.findById(inv.team_id);
    if (!team) throw notFound('Invitation');
    const member = await this.storage.transaction(async (tx) => {
      if (await tx.teams.findMember(inv.team_id, user.id)) throw conflict('You are already a member of this team', { reason: 'already_member' });
      if (!(await tx.invitations.settle(inv.id, 'accepted', now))) throw notFound('Invitation');
      const m = { id: this.ids.id('mem'), team_id: inv.team_id, user_id: user.id, role: inv.role, joined_at: now };
      await tx.teams.insertMember(m);
      await this.audit.record(tx, inv.team_id, 'member.joined', principal, { invitation_id: inv.id, role: inv.role });
      return m;
    });
    return { ...member, team: presentTeam(team) };
  }
}
