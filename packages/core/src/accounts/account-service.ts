import { createHash, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { badRequest, conflict, notFound } from '../errors';
import { PLAN_NAMES, type ApiKeyMaker, type KeyScope, type PlanName, type Principal, type User } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Payments } from '../ports/payments';
import type { Page, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { sha256Hex } from '../hashing';
import { isEmailAddress, MAX_EMAIL_LENGTH } from '../email-address';
import { ReadCaches } from '../cache/read-caches';
import type { Logger } from '../logger';

/** API keys look like `fl_<key id suffix>_<64 hex secret>`; only a hash of the secret is stored. */
const KEY_PATTERN = /^fl_([A-Za-z0-9]{8,40})_([0-9a-f]{64})$/;

/**
 * A host's user, as its own sign-in knows them (`ensureUser`, docs/embedding.md): any `name@place` of at
 * most 254 characters without spaces or control characters, `ops@intranet` included. Formloom mails only
 * addresses that its stricter rule (`isEmailAddress`) takes, and no mail is ever sent to a host user
 * as such, so their identity is kept as the host gives it; the `@` keeps it apart from user ids (`usr_...`).
 */
export function isHostIdentity(s: string): boolean {
  const at = s.lastIndexOf('@');
  return s.length <= MAX_EMAIL_LENGTH && at > 0 && at < s.length - 1 && !/[\s\p{Cc}]/u.test(s);
}

/** An API key as listed to an operator (docs/cli.md): no secret, no hash. */
export interface ApiKeySummary {
  key_id: string;
  scope: KeyScope;
  monthly_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  made_by: ApiKeyMaker;
}

export interface CreateUserInput {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  plan?: string;
  verified?: boolean;
}

/** Stored hashes as bytes, by the key record they come from: a kept record is decoded once, not at every request. */
const storedHashes = new WeakMap<object, Buffer>();
const storedHashOf = (key: { secret_hash: string }): Buffer => {
  let bytes = storedHashes.get(key);
  if (!bytes) storedHashes.set(key, (bytes = Buffer.from(key.secret_hash, 'hex')));
  return bytes;
};

/** Users, API keys, plans and credits: what the operator CLI and authentication need. */
@injectable()
export class AccountService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /**
   * The principal of a bearer token, or `null` when the key is malformed, unknown, revoked or expired.
   * The secret is compared in constant time against the stored hash. The key's record is kept in memory
   * while the cache revision holds (a revocation, on any instance, changes it: docs/decisions.md).
   */
  async authenticate(token: string): Promise<Principal | null> {
    const m = KEY_PATTERN.exec(token);
    if (!m) return null;
    const keyId = `key_${m[1]}`;
    const { revision } = await this.caches.gate.check();
    // A kept key is taken without a promise; a missing or stale one is loaded.
    const key = this.caches.keys.at(keyId, revision) ?? (await this.caches.keys.get(keyId, revision, () => this.storage.apiKeys.findById(keyId))).value;
    if (!key) return null;
    const stored = storedHashOf(key);
    const given = createHash('sha256').update(m[2]!).digest();
    if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
    if (key.revoked_at) return null;
    if (key.expires_at && key.expires_at <= this.clock.now().toISOString()) return null;
    return { user_id: key.user_id, key_id: key.id, scope: key.scope };
  }

  /** A user with a deliverable address (the CLI's `user create`); the first one of an empty instance is its admin. */
  async createUser(input: CreateUserInput): Promise<User> {
    const email = input.email?.trim().toLowerCase();
    if (!email || !isEmailAddress(email)) throw badRequest('email: must be a valid email address', { field: 'email' });
    return this.addUser(email, input);
  }

  /**
   * The user with `input.email`, created with `input` the first time it is asked for: how a host maps its
   * own signed-in users to Formloom users (docs/embedding.md). The host's identity is taken as given
   * (`isHostIdentity`: `ops@intranet` too); one that is not even that is refused with 400 and logged, since
   * it is the host's code, not its user, that must change. Safe under concurrency: of several first calls
   * for one email, in this process or another instance, one creates the user (the storage's unique email
   * refuses the others) and all return that one user.
   */
  async ensureUser(input: CreateUserInput): Promise<User> {
    const email = input.email?.trim().toLowerCase() ?? '';
    if (!isHostIdentity(email)) {
      const problem = 'email: a host user needs an identity like name@place (at most 254 characters, no spaces)';
      this.logger.warn(`ensureUser / hostUserAuthenticator: the host gave a user identity Formloom cannot keep (${problem}); the request was refused with 400`, { length: email.length });
      throw badRequest(problem, { field: 'email', reason: 'invalid_host_user' });
    }
    const existing = await this.storage.users.findByEmail(email);
    if (existing) return existing;
    try {
      return await this.addUser(email, input);
    } catch (e) {
      // Lost the race to a concurrent first call: its user is the one.
      const winner = await this.storage.users.findByEmail(email);
      if (winner) return winner;
      throw e;
    }
  }

  /**
   * Stores a new user. The first account of an empty instance takes the admin slot, whichever way it is
   * made (here, or a browser sign-up: docs/accounts.md); of concurrent first accounts one takes it.
   */
  private async addUser(email: string, input: CreateUserInput): Promise<User> {
    const plan = this.plan(input.plan ?? 'free');
    const now = this.clock.now().toISOString();
    const user: User = {
      id: this.ids.id('usr'),
      email,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      plan,
      email_verified: input.verified ?? false,
      created_at: now,
      updated_at: now,
    };
    await this.storage.transaction(async (tx) => {
      if (await tx.users.findByEmail(email)) throw conflict(`A user with email ${email} exists`);
      const empty = (await tx.users.list({ offset: 0, limit: 1 })).total === 0;
      await tx.users.insert(user);
      if (empty) await tx.credentials.claimAdmin(user.id, now);
    });
    return user;
  }

  /** The instance's admin (docs/accounts.md), or `null` when nobody holds the role. */
  async adminId(): Promise<string | null> {
    return this.storage.credentials.adminId();
  }

  /**
   * `formloom user admin`: gives the instance's one admin role to the user (from whoever held it), or with
   * `admin: false` takes it from them (nothing changes when they do not hold it).
   */
  async setAdmin(userRef: string, admin: boolean): Promise<{ user: User; is_admin: boolean }> {
    const user = await this.findUser(userRef);
    if (admin) await this.storage.credentials.grantAdmin(user.id, this.clock.now().toISOString());
    else await this.storage.credentials.revokeAdmin(user.id);
    return { user, is_admin: (await this.storage.credentials.adminId()) === user.id };
  }

  /** A user by id (`usr_...`) or email. */
  async findUser(ref: string): Promise<User> {
    const user = ref.includes('@')
      ? await this.storage.users.findByEmail(ref.trim().toLowerCase())
      : await this.storage.users.findById(ref);
    if (!user) throw notFound('User');
    return user;
  }

  /**
   * Creates a key; the returned `api_key` is the only time the secret is visible. `made_by` is `operator`
   * unless told otherwise: this is the operator's and the host's call; the account page passes `owner`.
   */
  async createKey(
    userRef: string,
    opts: { scope?: string; monthly_limit?: number | null; expires_at?: string | null; name?: string | null; made_by?: ApiKeyMaker } = {},
  ) {
    const user = await this.findUser(userRef);
    const scope = (opts.scope ?? 'forms') as KeyScope;
    if (scope !== 'forms' && scope !== 'voice') throw badRequest('scope: must be forms or voice', { field: 'scope' });
    const limit = opts.monthly_limit ?? null;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1)) {
      throw badRequest('monthly_limit: must be a positive integer', { field: 'monthly_limit' });
    }
    const name = opts.name?.trim() || null;
    if (name !== null && name.length > 100) throw badRequest('name: at most 100 characters', { field: 'name' });
    const suffix = this.ids.secret(12);
    const secret = this.ids.secret(32);
    await this.storage.apiKeys.insert({
      id: `key_${suffix}`,
      user_id: user.id,
      secret_hash: sha256Hex(secret),
      name,
      scope,
      monthly_limit: limit,
      created_at: this.clock.now().toISOString(),
      revoked_at: null,
      expires_at: opts.expires_at ?? null,
      made_by: opts.made_by ?? 'operator',
    });
    return { key_id: `key_${suffix}`, api_key: `fl_${suffix}_${secret}`, scope };
  }

  /** Every user, oldest first, `limit` (1-1000, default 100) of them from `offset`, with the total. */
  async listUsers(page: { offset?: number; limit?: number } = {}): Promise<Page<User>> {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? 100;
    if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset: must be a whole number', { field: 'offset' });
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest('limit: must be 1 to 1000', { field: 'limit' });
    return this.storage.users.list({ offset, limit });
  }

  /** The user's API keys, revoked ones too, oldest first: what an operator may see, never the secret's hash. */
  async listKeys(userRef: string): Promise<{ user: User; keys: ApiKeySummary[] }> {
    const user = await this.findUser(userRef);
    const keys = await this.storage.apiKeys.listByUser(user.id);
    return {
      user,
      keys: keys.map((k) => ({
        key_id: k.id,
        scope: k.scope,
        monthly_limit: k.monthly_limit,
        created_at: k.created_at,
        revoked_at: k.revoked_at,
        expires_at: k.expires_at,
        made_by: k.made_by,
      })),
    };
  }

  async revokeKey(keyId: string) {
    const key = await this.storage.apiKeys.findById(keyId);
    if (!key) throw notFound('API key');
    await this.storage.apiKeys.revoke(keyId, this.clock.now().toISOString());
    return { revoked: true };
  }

  async setPlan(userRef: string, plan: string) {
    const user = await this.findUser(userRef);
    const p = this.plan(plan);
    await this.storage.users.update(user.id, { plan: p, updated_at: this.clock.now().toISOString() });
    return { user_id: user.id, plan: p };
  }

  async purchaseCredits(userRef: string, credits: number) {
    if (!Number.isInteger(credits) || credits < 1) throw badRequest('credits: must be a positive integer', { field: 'credits' });
    const user = await this.findUser(userRef);
    return { user_id: user.id, balance: await this.payments.purchaseCredits(user.id, credits) };
  }

  private plan(name: string): PlanName {
    if (!PLAN_NAMES.includes(name as PlanName)) throw badRequest(`plan: must be one of ${PLAN_NAMES.join(', ')}`, { field: 'plan' });
    return name as PlanName;
  }
}
