import type { Request } from 'express';
import {
  FormloomError,
  SessionIssuer,
  sameSecret,
  sessionPrincipal,
  type ActiveSession,
  type ClientMeta,
  type Formloom,
  type OpenedSession,
  type SignupMode,
} from '@formloom/core';
import type { AuthenticateHook } from './auth';
import { acceptedOrigins } from './loopback-origins';

/** `createFormloomRouter({ sessions })`: people sign in with the router's own endpoints (docs/accounts.md). */
export interface SessionOptions {
  /** Who may make an account over HTTP (`FORMLOOM_SIGNUP`; default `invite`). The first account of an empty instance always may. */
  signup?: SignupMode;
  /**
   * The cookie's `Secure` attribute (default: when the instance's public URL is https). The public URL and
   * the secret key that hashes session tokens are the instance's (`createFormloom({ config })`).
   */
  secureCookie?: boolean;
}

export const SESSION_COOKIE = 'formloom_session';
export const CSRF_HEADER = 'x-formloom-csrf';
const COOKIE_MAX_AGE_S = 90 * 86_400;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrfFailed = (message: string) => new FormloomError('FORBIDDEN', message, { reason: 'csrf_failed' });

/**
 * What the session routes and the authenticator of one mounted router share: the options, and the session
 * each request was authenticated with (kept per request, never in a module-level map).
 */
export class SessionMount {
  readonly signup: SignupMode;
  private readonly active = new WeakMap<Request, ActiveSession>();

  constructor(
    readonly formloom: Formloom,
    private readonly options: SessionOptions,
  ) {
    this.signup = options.signup ?? 'invite';
    if (!['open', 'invite', 'closed'].includes(this.signup)) throw new Error(`sessions.signup: expected open, invite or closed, not ${String(this.signup)}`);
  }

  get issuer(): SessionIssuer {
    return this.formloom.service(SessionIssuer);
  }

  /** The public URL's origin: the only `Origin` allowed to change state with the cookie or to sign in. */
  get origin(): string {
    return new URL(this.formloom.config.publicUrl).origin;
  }

  private get secure(): boolean {
    return this.options.secureCookie ?? this.formloom.config.publicUrl.startsWith('https:');
  }

  /**
   * Key authentication as before, else the session cookie. A bearer header wins: a request that carries one
   * is judged by the key alone. A cookie-authenticated request that changes state must carry the session's
   * CSRF token in `X-Formloom-CSRF` and the public URL's `Origin` (403 `csrf_failed`).
   */
  authenticator(keys: AuthenticateHook): AuthenticateHook {
    // A keyed request goes straight to the key's check, without an async step of its own.
    const byCookie = this.cookieAuthenticator();
    return (req) => (req.headers.authorization ? keys(req) : byCookie(req));
  }

  private cookieAuthenticator(): AuthenticateHook {
    return async (req) => {
      const token = readCookie(req, SESSION_COOKIE);
      if (!token) return null;
      const active = await this.issuer.authenticate(token);
      if (!active) return null;
      if (!SAFE_METHODS.has(req.method)) {
        const given = req.headers[CSRF_HEADER];
        if (typeof given !== 'string' || !sameSecret(given, active.csrf_token)) {
          throw csrfFailed(`A request that changes state with the session cookie needs the ${'X-Formloom-CSRF'} header the sign-in answered`);
        }
        this.requireOrigin(req);
      }
      this.active.set(req, active);
      return sessionPrincipal(active.session);
    };
  }

  /** The session the request was authenticated with, or 401 when it used a key. */
  sessionOf(req: Request): ActiveSession {
    const active = this.active.get(req);
    if (!active) throw new FormloomError('UNAUTHORIZED', 'This endpoint needs a signed-in session (the formloom_session cookie), not an API key');
    return active;
  }

  /**
   * The live session of the cookie a sign-in endpoint was sent with, or `null`. Sign-in endpoints take no
   * session, so no CSRF check: this is only used to end that session (`replaces`) and to tell whether a
   * mailed link was followed from a session of its own account (the first proof of an address, core
   * `MailLinkService`).
   */
  async presented(req: Request): Promise<ActiveSession | null> {
    const token = readCookie(req, SESSION_COOKIE);
    return token ? this.issuer.authenticate(token) : null;
  }

  /**
   * A sign-in that presented a session cookie ends that session (any account's): the browser's cookie is
   * replaced by the new one, and the old token would otherwise stay valid until its idle expiry.
   */
  async replaces(presented: ActiveSession | null): Promise<void> {
    if (presented) await this.issuer.signOut(sessionPrincipal(presented.session));
  }

  /** Sign-in endpoints run without a session: the `Origin` check alone keeps other sites from signing a browser in. */
  requireOrigin(req: Request): void {
    // A loopback public URL also accepts the other loopback names of its port (loopback-origins.ts).
    if (!acceptedOrigins(this.origin).has(req.headers.origin ?? '')) throw csrfFailed(`The Origin header must be ${this.origin}`);
  }

  meta(req: Request): ClientMeta {
    const agent = req.headers['user-agent'];
    return { user_agent: typeof agent === 'string' ? agent : null, ip_address: req.ip ?? null };
  }

  /** `Set-Cookie` of a new session. */
  cookie(opened: Pick<OpenedSession, 'token'>): Record<string, string> {
    return { 'Set-Cookie': `${SESSION_COOKIE}=${opened.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_MAX_AGE_S}${this.secure ? '; Secure' : ''}` };
  }

  /** `Set-Cookie` that removes the session cookie. */
  clearCookie(): Record<string, string> {
    return { 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${this.secure ? '; Secure' : ''}` };
  }
}

/** One cookie's value from the `Cookie` header, or `null`. */
export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
