import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { conflict, forbidden, FormloomError, notFound } from '../errors';
import { named } from '../api-schemas';
import type { FormRecord, Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { Logger } from '../logger';
import type { FormloomEvents } from '../events';
import { TOKENS } from '../tokens';
import { parseBody } from '../parse';
import { newOutboxItem } from '../outbox/outbox-worker';
import { AuditService } from '../teams/audit-service';
import { listAllForms } from '../forms/form-access';
import { generationPrefix } from '../voice/synthesis';
import { verifyPassword } from './secrets';
import { queueBlobFolders } from '../responses/erase-responses';

/** Without a password to type again, a person proves it is them by a sign-in this recent (docs/accounts.md). */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export const accountDeletionSchema = z
  .object({
    password: z.string().max(1000).optional().describe('The current password, when the account has one'),
    delete_signed_contracts: z.boolean().optional().describe('Also delete forms holding signed contracts (default false: refused with 409)'),
  })
  .strict();

export const adminDeletionSchema = accountDeletionSchema.omit({ password: true });

const teamRef = z.object({ id: z.string(), name: z.string() });
export const deletionPlanOut = named(
  'AccountDeletionPlan',
  z.object({
    forms: z.number().int().describe('Forms of their own, deleted with their responses and files'),
    responses: z.number().int(),
    signed_contracts: z.number().int().describe('Signed contracts among those forms: deleting them needs delete_signed_contracts'),
    teams_deleted: z.array(teamRef).describe('Teams they own alone, deleted with their forms'),
    teams_left: z.array(teamRef).describe('Teams they belong to but do not own: their forms stay with the team'),
    blockers: z
      .array(z.object({ reason: z.enum(['team_has_members', 'admin_must_hand_over']), message: z.string(), team: teamRef.optional() }))
      .describe('What must be done first (transfer a team, hand over the admin role)'),
  }),
);
export const deletionDoneOut = named(
  'AccountDeleted',
  z.object({ deleted: z.literal(true), forms: z.number().int(), responses: z.number().int(), teams_deleted: z.number().int() }),
);

type Plan = z.infer<typeof deletionPlanOut>;

/**
 * Deleting an account (docs/accounts.md, "Deleting an account"): by its owner from the account page (their
 * password again, or a sign-in of the last 10 minutes), or by the instance's admin. Their own forms, responses,
 * files, keys, sessions, passkeys, credits and voice audio go; team forms stay with their team; a team with other
 * members must be transferred first; audit trails keep what they did, under their id.
 */
@injectable()
export class AccountDeletionService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** `GET /account/deletion`: what deleting the caller's account takes, and what must be done first. */
  async planOwn(principal: Principal): Promise<Plan> {
    return (await this.gather(principal.user_id)).plan;
  }

  /** `DELETE /account`: the caller's own account, after they proved it is them. */
  async deleteOwn(principal: Principal, body: unknown) {
    const input = parseBody(accountDeletionSchema, body ?? {});
    const stored = await this.storage.credentials.findPassword(principal.user_id);
    if (stored) {
      if (!input.password || !(await verifyPassword(input.password, stored.password_hash))) {
        throw new FormloomError('FORBIDDEN', 'Type your password to delete your account', { reason: 'invalid_credentials', field: 'password' });
      }
    } else {
      const sessions = await this.storage.signInSessions.listByUser(principal.user_id, this.clock.now().toISOString());
      const current = sessions.find((s) => s.id === principal.session_id);
      if (!current || this.clock.now().getTime() - Date.parse(current.created_at) > RECENT_SIGN_IN_MS) {
        throw forbidden('Sign in again, then delete your account within 10 minutes', { reason: 'recent_sign_in_required' });
      }
    }
    return this.run(principal.user_id, principal, input.delete_signed_contracts === true);
  }

  /** `GET /admin/users/:id/deletion`: the plan for another person's account (the admin). */
  async planFor(admin: Principal, userId: string): Promise<Plan> {
    await this.requireAdmin(admin);
    return (await this.gather(userId)).plan;
  }

  /** `DELETE /admin/users/:id`: the admin deletes someone else's account (their own goes through the account page). */
  async deleteAsAdmin(admin: Principal, userId: string, body: unknown) {
    await this.requireAdmin(admin);
    const input = parseBody(adminDeletionSchema, body ?? {});
    if (userId === admin.user_id) throw conflict('Delete your own account from your account page', { reason: 'own_account' });
    return this.run(userId, admin, input.delete_signed_contracts === true);
  }

  /** `formloom user delete`: the operator, on the server's own machine; the same rules, no principal. */
  async deleteByOperator(userId: string, deleteSigned: boolean) {
    return this.run(userId, null, deleteSigned);
  }

  private async requireAdmin(p: Principal) {
    if ((await this.storage.credentials.adminId()) !== p.user_id) throw forbidden('Only the administrator of this server may do this', { reason: 'not_instance_admin' });
  }

  private async gather(userId: string) {
    if (!(await this.storage.users.findById(userId))) throw notFound('User');
    const memberships = await this.storage.teams.listForUser(userId);
    const blockers: Plan['blockers'] = [];
    const teamsDeleted: Array<{ id: string; name: string }> = [];
    const teamsLeft: Array<{ id: string; name: string }> = [];
    for (const m of memberships) {
      const team = { id: m.team.id, name: m.team.name };
      if (m.role !== 'owner') teamsLeft.push(team);
      else if (m.member_count > 1) blockers.push({ reason: 'team_has_members', message: `Give the team "${m.team.name}" to another member first, or remove its members`, team });
      else teamsDeleted.push(team);
    }
    if ((await this.storage.credentials.adminId()) === userId && (await this.storage.users.list({ offset: 0, limit: 0 })).total > 1) {
      blockers.push({ reason: 'admin_must_hand_over', message: 'Make someone else the administrator of this server first' });
    }
    const forms: FormRecord[] = [];
    for (const teamIds of [[], ...teamsDeleted.map((t) => [t.id])]) {
      forms.push(...(await listAllForms(this.storage, { ownerId: userId, teamIds, ...(teamIds.length ? { teamId: teamIds[0] } : {}) })));
    }
    let signed = 0;
    for (const f of forms) signed += await this.storage.signing.countSessionsOfForm(f.id, ['completing', 'completed']);
    const plan: Plan = {
      forms: forms.length,
      responses: forms.reduce((n, f) => n + (f.response_count ?? 0), 0),
      signed_contracts: signed,
      teams_deleted: teamsDeleted,
      teams_left: teamsLeft,
      blockers,
    };
    return { plan, forms };
  }

  private async run(userId: string, actor: Principal | null, deleteSigned: boolean) {
    const { plan, forms } = await this.gather(userId);
    const first = plan.blockers[0];
    if (first) throw conflict(first.message, { reason: first.reason, blockers: plan.blockers });
    if (plan.signed_contracts > 0 && !deleteSigned) {
      throw conflict(`Your forms hold ${plan.signed_contracts} signed contract(s); pass delete_signed_contracts=true to delete them too`, {
        reason: 'form_has_signed_contracts',
        signed_contracts: plan.signed_contracts,
      });
    }
    const now = () => this.clock.now().toISOString();
    for (const form of forms) {
      // One form a transaction, as DELETE /forms/:id does: uploads go after the commit through the outbox.
      await this.storage.transaction(async (tx) => {
        if (await tx.forms.delete(form.id)) await tx.outbox.enqueue(newOutboxItem(this.ids, now(), 'uploads_cleanup', { form_id: form.id }));
      });
      this.events.emit('form.deleted', { form_id: form.id });
    }
    for (const team of plan.teams_deleted) {
      await this.storage.transaction(async (tx) => {
        await this.audit.record(tx, team.id, 'team.deleted', actor, { account_deleted: true });
        await tx.teams.delete(team.id);
      });
    }
    // A tombstone in each team they leave: the trail says the account is gone, under the id its entries carry.
    for (const team of plan.teams_left) {
      await this.storage.transaction(async (tx) => this.audit.record(tx, team.id, 'member.removed', actor, { user_id: userId, account_deleted: true }));
    }
    // The audio goes through the outbox once the rows are gone: from any instance, or from the CLI's process.
    const audio = await this.storage.transaction(async (tx) => {
      const { generation_ids } = await tx.users.deleteAccount(userId);
      await queueBlobFolders(tx, { ids: this.ids, clock: this.clock }, generation_ids.map(generationPrefix));
      return generation_ids.length;
    });
    if (forms.length || audio) this.events.emit('outbox.enqueued', { kind: 'uploads_cleanup' });
    this.logger.info(`account ${userId} deleted by ${!actor ? 'the operator' : actor.user_id === userId ? 'its owner' : 'the admin'}: ${forms.length} forms, ${plan.teams_deleted.length} teams`);
    return { deleted: true as const, forms: forms.length, responses: plan.responses, teams_deleted: plan.teams_deleted.length };
  }
}
