import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { Principal, User } from '../domain/types';
import type { SignInSession } from '../domain/sign-in';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { csrfTokenOf, isToken, newToken, tokenHash } from './secrets';

/** Idle and absolute lifetimes of a session (docs/accounts.md "Sessions"). */
export const SESSION_IDLE_MS = 14 * 86_400_000;
export const SESSION_ABSOLUTE_MS = 90 * 86_400_000;
/** A session's `last_seen_at` is written at most this often: one write per hour, not per request. */
const TOUCH_EVERY_MS = 60 * 60_000;
/** Ended sessions and spent tokens are deleted now and then, by whichever instance checks a session. */
const PRUNE_EVERY_MS = 10 * 60_000;

/** Who opened a session, as the HTTP layer saw it. */
export interface ClientMeta {
  user_agent: string | null;
  ip_address: string | null;
}

/** A session just opened: the cookie's token (only here, never stored), its CSRF token, the record and the user. */
export interface OpenedSession {
  token: string;
  csrf_token: string;
  session: SignInSession;
  user: User;
}

/** A session found from its cookie. */
export interface ActiveSession {
  session: SignInSession;
  user: User;
  csrf_token: string;
}

/** The user as the sign-in endpoints and the account page show it. */
export const presentUser = (u: User) => ({
  id: u.id,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  plan: u.plan,
  email_verified: u.email_verified,
  created_at: u.created_at,
});

/** The principal of a session: a person, who may call both `forms` and `voice` routes (the router sets the scope). */
export const sessionPrincipal = (s: SignInSession): Principal => ({ user_id: s.user_id, key_id: null, scope: 'forms', session_id: s.id });

/**
 * Browser sessions (docs/accounts.md, "Sessions"): opens them with a new random token, finds them from a
 * cookie, ends them. Tokens are stored as HMAC-SHA256 under the instance secret key (`config.secretKey`).
 */
@injectable()
export class SessionIssuer {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  /** Opens a new session for the user (a new random token: a cookie the client had before is never adopted). */
  async open(tx: Storage, user: User, meta: ClientMeta): Promise<OpenedSession> {
    const now = this.clock.now();
    const token = newToken();
    const session: SignInSession = {
      id: this.ids.id('ses'),
      user_id: user.id,
      token_hash: this.hash(token),
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
      user_agent: meta.user_agent?.slice(0, 400) ?? null,
      ip_address: meta.ip_address,
    };
    await tx.signInSessions.insert(session);
    return { token, csrf_token: csrfTokenOf(this.config.secretKey, token), session, user };
  }

  /**
   * The session of a cookie's token, or `null` when the token is malformed, unknown (another instance's
   * secret key hashes it differently), signed out, idle for 14 days or older than 90 days, or its user is
   * gone. A use extends the idle expiry (written at most hourly).
   */
  async authenticate(token: string): Promise<ActiveSession | null> {
    if (!isToken(token)) return null;
    const session = await this.storage.signInSessions.findByTokenHash(this.hash(token));
    const now = this.clock.now();
    this.maybePrune(now);
    if (!session || session.expires_at <= now.toISOString()) return null;
    const user = await this.storage.users.findById(session.user_id);
    if (!user) return null;
    if (now.getTime() - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS) {
      const expires = Math.min(now.getTime() + SESSION_IDLE_MS, Date.parse(session.created_at) + SESSION_ABSOLUTE_MS);
      session.last_seen_at = now.toISOString();
      session.expires_at = new Date(expires).toISOString();
      await this.storage.signInSessions.touch(session.id, session.last_seen_at, session.expires_at);
    }
    return { session, user, csrf_token: csrfTokenOf(this.config.secretKey, token) };
  }

  /** What `GET /auth/session` answers. */
  view(active: ActiveSession) {
    const { session, user, csrf_token } = active;
    return { user: presentUser(user), csrf_token, session: { id: session.id, created_at: session.created_at, expires_at: session.expires_at } };
  }

  /** Ends one session. */
  async signOut(principal: Principal): Promise<void> {
    if (principal.session_id) await this.storage.signInSessions.delete(principal.user_id, principal.session_id);
  }

  /** Ends every session of the user (on every instance: they share storage). */
  async signOutEverywhere(userId: string): Promise<number> {
    return this.storage.signInSessions.deleteForUser(userId, null);
  }

  private nextPrune = 0;

  private maybePrune(now: Date) {
    if (now.getTime() < this.nextPrune) return;
    this.nextPrune = now.getTime() + PRUNE_EVERY_MS;
    const before = now.toISOString();
    // Housekeeping only: a failure here must not fail the sign-in that happened to trigger it.
    void Promise.all([this.storage.signInSessions.prune(before), this.storage.oneTimeTokens.prune(before)]).catch(() => undefined);
  }

  private hash(token: string) {
    return tokenHash(this.config.secretKey, 'session', token);
  }
}
