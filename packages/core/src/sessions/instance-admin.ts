import { inject, injectable } from 'tsyringe';
import { AccountService } from '../accounts/account-service';
import type { Principal, User } from '../domain/types';
import { forbidden, notFound } from '../errors';
import type { Logger } from '../logger';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { adminCreditsSchema, adminPeopleQuery, adminPlanSchema } from './admin-schemas';

/** Most people one list answers; the search reads every user, so it is capped like `formloom user list`'s pages. */
const MAX_SCAN = 10_000;
const STUCK_LIMIT = 1000;

export interface AdminPerson {
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  plan: string;
  email_verified: boolean;
  created_at: string;
  is_admin: boolean;
}

/**
 * The instance admin's area (docs/accounts.md, "The admin area"): what `formloom user list`, `plan set`,
 * `credits purchase`, `key list/revoke` and `outbox list/retry/drop` do, for the one account that holds the
 * instance's admin role. Everyone else gets 403. Each change is written to the server log as an admin action
 * (who, what, whom): the audit log is per team, and these actions belong to no team (docs/decisions.md).
 */
@injectable()
export class InstanceAdminService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(AccountService) private readonly accounts: AccountService,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** 403 unless the principal holds the instance's admin role. */
  async requireAdmin(principal: Principal): Promise<void> {
    if ((await this.storage.credentials.adminId()) !== principal.user_id) {
      throw forbidden('Only the administrator of this server may do this', { reason: 'not_instance_admin' });
    }
  }

  /**
   * `GET /admin/users`: people, oldest first, filtered by `q` (part of the email or name), `plan`,
   * `verified` (`true`/`false`) and `admin` (`true`/`false`); `limit` (1-200, default 50) from `offset`.
   */
  async listPeople(principal: Principal, query: Record<string, unknown>) {
    await this.requireAdmin(principal);
    const f = parseBody(adminPeopleQuery, query);
    const adminId = await this.storage.credentials.adminId();
    const all: User[] = [];
    for (let offset = 0; offset < MAX_SCAN; ) {
      const page = await this.storage.users.list({ offset, limit: 1000 });
      all.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.total) break;
    }
    const needle = f.q?.toLowerCase() ?? '';
    const matches = all.filter(
      (u) =>
        (!needle || [u.email, u.first_name ?? '', u.last_name ?? '', `${u.first_name ?? ''} ${u.last_name ?? ''}`].some((s) => s.toLowerCase().includes(needle))) &&
        (!f.plan || u.plan === f.plan) &&
        (!f.verified || u.email_verified === (f.verified === 'true')) &&
        (!f.admin || (u.id === adminId) === (f.admin === 'true')),
    );
    const offset = f.offset ?? 0;
    const limit = f.limit ?? 50;
    return { people: matches.slice(offset, offset + limit).map((u) => present(u, adminId)), total: matches.length };
  }

  /** `GET /admin/users/:id`: one person with their credit balance and API keys (revoked ones too, never a secret). */
  async person(principal: Principal, userId: string) {
    await this.requireAdmin(principal);
    const { user, keys } = await this.accounts.listKeys(await this.idOf(userId));
    const adminId = await this.storage.credentials.adminId();
    return { person: present(user, adminId), credits: await this.storage.credits.balance(user.id), api_keys: keys };
  }

  /** `PATCH /admin/users/:id`: moves the person to another plan. */
  async setPlan(principal: Principal, userId: string, body: unknown) {
    await this.requireAdmin(principal);
    const { plan } = parseBody(adminPlanSchema, body);
    const id = await this.idOf(userId);
    await this.accounts.setPlan(id, plan);
    this.audit(principal, 'plan set', id, { plan });
    return this.person(principal, id);
  }

  /** `POST /admin/users/:id/credits`: adds credits (recorded as a purchase, like `formloom credits purchase`). */
  async addCredits(principal: Principal, userId: string, body: unknown) {
    await this.requireAdmin(principal);
    const { credits } = parseBody(adminCreditsSchema, body);
    const id = await this.idOf(userId);
    const r = await this.accounts.purchaseCredits(id, credits);
    this.audit(principal, 'credits added', id, { credits, balance: r.balance });
    return { user_id: id, credits: r.balance };
  }

  /** `DELETE /admin/users/:id/api-keys/:keyId`: revokes one of the person's keys (404 for another person's key). */
  async revokeKey(principal: Principal, userId: string, keyId: string) {
    await this.requireAdmin(principal);
    const id = await this.idOf(userId);
    const key = await this.storage.apiKeys.findById(keyId);
    if (!key || key.user_id !== id) throw notFound('API key');
    await this.accounts.revokeKey(keyId);
    this.audit(principal, 'API key revoked', id, { key_id: keyId });
  }

  /** `GET /admin/outbox`: what could not go out (failed, or waiting for a retry after a failure), never a payload. */
  async stuck(principal: Principal) {
    await this.requireAdmin(principal);
    const items = await this.storage.outbox.listStuck({ limit: STUCK_LIMIT });
    return {
      items: items.map((i) => ({
        id: i.id,
        kind: i.kind,
        status: i.status,
        attempts: i.attempts,
        next_attempt_at: i.status === 'pending' ? i.next_attempt_at : null,
        last_error: i.last_error,
        created_at: i.created_at,
        updated_at: i.updated_at,
      })),
    };
  }

  /** `POST /admin/outbox/:id/retry`: due now; 404 when unknown, delivered, or being sent right now. */
  async retry(principal: Principal, itemId: string) {
    await this.requireAdmin(principal);
    if (!(await this.storage.outbox.requeue(itemId, this.clock.now().toISOString()))) throw notFound('Stuck item');
    this.audit(principal, 'outbox item retried', null, { item_id: itemId });
  }

  /** `DELETE /admin/outbox/:id`: given up on for good. */
  async drop(principal: Principal, itemId: string) {
    await this.requireAdmin(principal);
    if (!(await this.storage.outbox.drop(itemId, this.clock.now().toISOString()))) throw notFound('Stuck item');
    this.audit(principal, 'outbox item dropped', null, { item_id: itemId });
  }

  /** A user id that exists (ids only: an email in a path would be a second way to name the same person). */
  private async idOf(userId: string): Promise<string> {
    const user = userId.startsWith('usr') ? await this.storage.users.findById(userId) : null;
    if (!user) throw notFound('User');
    return user.id;
  }

  private audit(principal: Principal, action: string, userId: string | null, details: Record<string, unknown>) {
    this.logger.info(`instance admin: ${action}`, { admin_id: principal.user_id, user_id: userId, ...details });
  }
}

const present = (u: User, adminId: string | null): AdminPerson => ({
  user_id: u.id,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  plan: u.plan,
  email_verified: u.email_verified,
  created_at: u.created_at,
  is_admin: u.id === adminId,
});
