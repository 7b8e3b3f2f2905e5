import { inject, injectable } from 'tsyringe';
import { AccountService } from '../accounts/account-service';
import type { Principal, User } from '../domain/types';
import { FormloomError, notFound } from '../errors';
import { parseBody } from '../parse';
import type { FormloomConfig } from '../config';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { apiKeyCreateSchema, passwordChangeSchema, profilePatchSchema } from './schemas';
import { hashPassword, verifyPassword } from './secrets';
import { presentUser } from './session-issuer';

/**
 * The account page's own data (docs/accounts.md): profile, password, sessions and API keys of the signed-in
 * user. Keys are made by `AccountService.createKey`, in the same format and hash as the CLI's.
 */
@injectable()
export class AccountProfileService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(AccountService) private readonly accounts: AccountService,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  /** `GET /account`: the user and whether they are the instance's admin (the first account). */
  async get(principal: Principal) {
    const user = await this.user(principal.user_id);
    return this.present(user);
  }

  /** `PATCH /account`: first and last name. */
  async update(principal: Principal, body: unknown) {
    const input = parseBody(profilePatchSchema, body);
    const patch: Partial<User> = { updated_at: this.clock.now().toISOString() };
    if (input.first_name !== undefined) patch.first_name = input.first_name || null;
    if (input.last_name !== undefined) patch.last_name = input.last_name || null;
    const user = await this.storage.users.update(principal.user_id, patch);
    if (!user) throw notFound('User');
    return this.present(user);
  }

  /**
   * `POST /account/password`: checks the current password (a user without one, made by the CLI or
   * signing in by links only, may set one without), sets the new one and ends every other session.
   */
  async changePassword(principal: Principal, body: unknown): Promise<void> {
    const input = parseBody(passwordChangeSchema, body);
    const stored = await this.storage.credentials.findPassword(principal.user_id);
    if (stored && !(await verifyPassword(input.current_password, stored.password_hash))) {
      throw new FormloomError('FORBIDDEN', 'The current password is wrong', { reason: 'invalid_credentials', field: 'current_password' });
    }
    const hash = await hashPassword(input.new_password, this.config.passwordHashCost);
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      await tx.credentials.setPassword({ user_id: principal.user_id, password_hash: hash, updated_at: now });
      await tx.signInSessions.deleteForUser(principal.user_id, principal.session_id ?? null);
      await tx.oneTimeTokens.revokeForUser(principal.user_id, 'password_reset', now);
    });
  }

  /** `GET /account/sessions`: the user's live sessions, the caller's marked `current`. */
  async sessions(principal: Principal) {
    const list = await this.storage.signInSessions.listByUser(principal.user_id, this.clock.now().toISOString());
    return {
      sessions: list.map((s) => ({
        id: s.id,
        created_at: s.created_at,
        last_seen_at: s.last_seen_at,
        expires_at: s.expires_at,
        user_agent: s.user_agent,
        ip_address: s.ip_address,
        current: s.id === principal.session_id,
      })),
    };
  }

  /** `DELETE /account/sessions/:id`: ends one of the user's sessions (404 for another user's). */
  async endSession(principal: Principal, sessionId: string): Promise<void> {
    if (!(await this.storage.signInSessions.delete(principal.user_id, sessionId))) throw notFound('Session');
  }

  /** `GET /account/api-keys`: every key of the user, revoked ones too, oldest first; never a secret or its hash. */
  async apiKeys(principal: Principal) {
    const keys = await this.storage.apiKeys.listByUser(principal.user_id);
    return {
      api_keys: keys.map((k) => ({
        key_id: k.id,
        name: k.name,
        scope: k.scope,
        monthly_limit: k.monthly_limit,
        created_at: k.created_at,
        revoked_at: k.revoked_at,
        expires_at: k.expires_at,
      })),
    };
  }

  /** `POST /account/api-keys`: a new key; the answer is the only time its secret is shown. */
  async createApiKey(principal: Principal, body: unknown) {
    const input = parseBody(apiKeyCreateSchema, body);
    // `owner`: made by a session of the account, so the first proof of its address revokes it (mail-links.ts).
    const made = await this.accounts.createKey(principal.user_id, { scope: input.scope, monthly_limit: input.monthly_limit ?? null, name: input.name ?? null, made_by: 'owner' });
    const key = await this.storage.apiKeys.findById(made.key_id);
    return {
      key_id: made.key_id,
      api_key: made.api_key,
      name: key?.name ?? null,
      scope: made.scope,
      monthly_limit: key?.monthly_limit ?? null,
      created_at: key?.created_at ?? this.clock.now().toISOString(),
    };
  }

  /** `DELETE /account/api-keys/:keyId`: revokes one of the user's keys (404 for another user's or a revoked one). */
  async revokeApiKey(principal: Principal, keyId: string): Promise<void> {
    const key = await this.storage.apiKeys.findById(keyId);
    if (!key || key.user_id !== principal.user_id) throw notFound('API key');
    if (!(await this.storage.apiKeys.revoke(keyId, this.clock.now().toISOString()))) throw notFound('API key');
  }

  private async user(id: string): Promise<User> {
    const user = await this.storage.users.findById(id);
    if (!user) throw notFound('User');
    return user;
  }

  private async present(user: User) {
    return { user: presentUser(user), is_admin: (await this.storage.credentials.adminId()) === user.id };
  }
}
