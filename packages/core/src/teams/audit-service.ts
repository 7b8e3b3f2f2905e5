import { inject, injectable } from 'tsyringe';
import { badRequest, forbidden } from '../errors';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { paging } from '../pagination';
import { requireTeamRole } from './team-access';
import { TOKENS } from '../tokens';
import { inclusiveRange } from '../date-range';

/** Security-relevant team actions recorded in the audit log. */
export const AUDIT_ACTIONS = [
  'team.created',
  'team.renamed',
  'team.deleted',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'invitation.cancelled',
  'branding.updated',
  'branding.deleted',
  'form.created',
  'form.published',
  'form.unpublished',
  'form.deleted',
  'webhooks.changed',
  // A form moved or copied between places (forms/form-move.ts): an entry in each team involved.
  'form.moved_in',
  'form.moved_out',
  'form.copied_in',
  'form.copied_out',
  // A respondent's responses erased at their request (responses/respondent-data.ts): counts and a fingerprint, never the address.
  'responses.erased',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Writes and reads a team's audit log (reading: owner/admin, Enterprise plan). */
@injectable()
export class AuditService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
  ) {}

  /** Records an action; pass the transaction that makes the change so both commit together. */
  async record(tx: Storage, teamId: string, action: AuditAction, principal: Principal | null, details: Record<string, unknown> = {}) {
    const user = principal ? await tx.users.findById(principal.user_id) : null;
    await tx.auditLogs.insert({
      id: this.ids.id('aud'),
      team_id: teamId,
      action,
      user_id: principal?.user_id ?? null,
      user_email: user?.email ?? null,
      details,
      ip_address: principal?.ip_address ?? null,
      timestamp: this.clock.now().toISOString(),
    });
  }

  async list(principal: Principal, teamId: string, query: Record<string, unknown>) {
    const { team } = await requireTeamRole(this.storage, principal, teamId, ['owner', 'admin']);
    if (!(await this.plans.featuresFor(team.owner_id)).audit_logs) {
      throw forbidden('Audit logs need the Enterprise plan', { reason: 'audit_logs_require_enterprise', upgrade_required: true });
    }
    for (const f of ['action', 'user_id'] as const) {
      if (query[f] !== undefined && typeof query[f] !== 'string') throw badRequest(`${f}: must be a single string`, { field: f });
    }
    const { page, per_page, offset } = paging(query, 50);
    const { items, total } = await this.storage.auditLogs.list({
      teamId,
      action: (query.action as string | undefined) || undefined,
      userId: (query.user_id as string | undefined) || undefined,
      ...inclusiveRange(query),
      offset,
      limit: per_page,
    });
    return {
      events: items.map((e) => ({
        id: e.id,
        action: e.action,
        user_id: e.user_id,
        user_email: e.user_email,
        details: e.details,
        ip_address: e.ip_address,
        timestamp: e.timestamp,
      })),
      total,
      page,
      per_page,
    };
  }
}
