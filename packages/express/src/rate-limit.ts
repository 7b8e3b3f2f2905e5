import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { FormloomError, isFormloomError, type Clock, type Formloom } from '@formloom/core';
import type { AuthenticateHook } from './auth';
import { BatchedCounters, type RateLimitStore } from './rate-limit-counters';
import type { RouteSpec } from './route-table';

/** `limit` requests per `windowSeconds` (default 60); `false` turns that limit off. */
export interface RateLimitRule {
  limit: number;
  windowSeconds?: number;
}

export { memoryRateLimitStore, type RateLimitStore } from './rate-limit-counters';

/** The router's limits (docs/security.md, "Rate limits"); every one may be raised or turned off. */
export interface RateLimitOptions {
  /** Counters; default: the instance's storage. `memoryRateLimitStore()` suits a single process. */
  store?: RateLimitStore;
  /** Authenticated requests per API key (default 600 a minute). */
  perKey?: RateLimitRule | false;
  /** Failed authentication per client IP: bad API keys, unknown invitation, resume or upload tokens (default 20 a minute). */
  failedAuth?: RateLimitRule | false;
  /** Public submissions per client IP and form (default 120 a minute). */
  submissions?: RateLimitRule | false;
  /** Public partial-response updates (`X-Resume-Token`) per client IP and form (default 300 a minute). */
  partialUpdates?: RateLimitRule | false;
  /** Public uploads per client IP and form (default 60 a minute). */
  uploads?: RateLimitRule | false;
  /** Public reads (published forms, `/f/` pages, uploaded files, other public routes) per client IP (default 600 a minute). */
  publicReads?: RateLimitRule | false;
}

export type RateLimitName = Exclude<keyof RateLimitOptions, 'store'>;

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitName, RateLimitRule>> = {
  perKey: { limit: 600, windowSeconds: 60 },
  failedAuth: { limit: 20, windowSeconds: 60 },
  submissions: { limit: 120, windowSeconds: 60 },
  partialUpdates: { limit: 300, windowSeconds: 60 },
  uploads: { limit: 60, windowSeconds: 60 },
  publicReads: { limit: 600, windowSeconds: 60 },
};

/** Public routes and what limits them; `perForm` counts per client IP and form, else per client IP. */
const PUBLIC_ROUTES: Record<string, { limit: RateLimitName; perForm: boolean }> = {
  'post /public/forms/:slug/responses': { limit: 'submissions', perForm: true },
  'patch /public/forms/:slug/responses/:responseId': { limit: 'partialUpdates', perForm: true },
  'post /public/forms/:slug/uploads': { limit: 'uploads', perForm: true },
  // A hold keeps a time from others for minutes: counted like submissions (docs/booking.md).
  'post /public/forms/:slug/bookings/holds': { limit: 'submissions', perForm: true },
};

/**
 * Routes whose path or header carries a secret token: these answers mean a wrong guess and count as failed
 * authentication. Sign-in endpoints (docs/accounts.md) are among them; those that send mail count every
 * request (`'all'`), so that they cannot be used to flood a mailbox.
 */
const TOKEN_ROUTES: Record<string, number[] | 'all'> = {
  'post /auth/signin': [401],
  'post /auth/signup': 'all',
  'post /auth/signup/finish': [400, 401, 409],
  'post /auth/email-link': 'all',
  'post /auth/email-link/verify': [400],
  'post /auth/password-reset': 'all',
  'post /auth/password-reset/complete': [400],
  'post /auth/verify-email': [400],
  'post /auth/passkeys/signin': [400, 401],
  // A signed-in session guessing its own password (a stolen cookie before a takeover): the same budget.
  'post /account/password': [403],
  'post /invitations/:token/accept': [404],
  'get /invitations/:token': [404],
  'patch /public/forms/:slug/responses/:responseId': [401, 404],
  // A forged or altered signed link, or a file the caller may not read, is a 404 (docs/security.md "Uploaded files").
  'get /public/uploads/:formId/:token/:name': [404],
};

const PRUNE_EVERY_MS = 5 * 60_000;

interface Decision {
  limit: number;
  remaining: number;
  resetsAt: string;
  retryAfter: number;
  exceeded: boolean;
}

const CLIENT_IP = Symbol('formloom.clientIp');

/**
 * `req.ip`, worked out once per request: Express reads `trust proxy` and X-Forwarded-For again at each
 * access, and an authenticated request needs it twice (its failures' limit and its principal).
 */
export function requestIp(req: Request): string | undefined {
  const r = req as Request & { [CLIENT_IP]?: string | null };
  let ip = r[CLIENT_IP];
  if (ip === undefined) ip = r[CLIENT_IP] = req.ip ?? null;
  return ip ?? undefined;
}

/** The client's address: the socket's, or X-Forwarded-For's as far as the host's `trust proxy` allows. */
export const clientIp = (req: Request) => requestIp(req) ?? req.socket.remoteAddress ?? 'unknown';

/** Applies the limits of `options` to one router; `false` (or every limit off) leaves routes as they are. */
export class RateLimits {
  private readonly rules: Partial<Record<RateLimitName, Required<RateLimitRule>>> = {};
  private readonly store: RateLimitStore;
  private readonly counters: BatchedCounters;
  private readonly clock: Clock;
  private nextPrune: number;
  private readonly recent = new RecentKeys();

  constructor(formloom: Formloom, options: RateLimitOptions | false | undefined) {
    this.store = (options && options.store) || formloom.storage.rateLimits;
    this.clock = formloom.clock;
    this.counters = new BatchedCounters(this.store, this.clock);
    this.nextPrune = this.clock.now().getTime() + PRUNE_EVERY_MS;
    for (const name of Object.keys(DEFAULT_RATE_LIMITS) as RateLimitName[]) {
      const rule = options === false ? false : (options?.[name] ?? DEFAULT_RATE_LIMITS[name]);
      if (rule === false) continue;
      if (!(Number.isInteger(rule.limit) && rule.limit > 0)) throw new Error(`rateLimits.${name}.limit: expected a positive integer`);
      const windowSeconds = rule.windowSeconds ?? 60;
      if (!(windowSeconds > 0)) throw new Error(`rateLimits.${name}.windowSeconds: expected a positive number`);
      this.rules[name] = { limit: rule.limit, windowSeconds };
    }
  }

  /** Counts one request on `name` for `subject`; `null` when that limit is off. */
  async consume(name: RateLimitName, subject: string): Promise<Decision | null> {
    return this.count(name, subject);
  }

  /**
   * `consume`, answered at once when the hit is counted in memory (most hits of a busy key): every request
   * an async step fewer (docs/benchmarks.md, "CPU per cached GET").
   */
  private count(name: RateLimitName, subject: string): Decision | null | Promise<Decision | null> {
    const rule = this.rules[name];
    if (!rule) return null;
    const now = this.clock.now();
    this.maybePrune(now);
    const counter = this.counters.hit(this.recent.of(name, subject), rule.limit, now, rule.windowSeconds * 1000);
    if (counter instanceof Promise) return counter.then((c) => decide(rule, c.hits, c.resets_at, now, c.resets_ms));
    return decide(rule, counter.hits, counter.resets_at, now, counter.resets_ms);
  }

  /** Takes back a hit counted by `consume` (the attempt turned out allowed). */
  async release(name: RateLimitName, subject: string): Promise<void> {
    if (this.rules[name]) await this.counters.release(this.recent.of(name, subject), this.clock.now());
  }

  /** `consume`, answering 429 when the limit is exceeded; `headers` also on allowed requests. */
  async enforce(name: RateLimitName, subject: string, res: Response, headers = true): Promise<void> {
    await this.limit(name, subject, res, headers);
  }

  /** `enforce`, with no promise when the hit was counted in memory; throws the 429 as it. */
  private limit(name: RateLimitName, subject: string, res: Response, headers = true): void | Promise<void> {
    const d = this.count(name, subject);
    if (d instanceof Promise) return d.then((known) => applyDecision(name, known, res, headers));
    applyDecision(name, d, res, headers);
  }

  /**
   * Starts an attempt at a secret (an API key, a token) from `ip`. An address this instance has seen fail
   * in the window is checked against the shared counter first: refused at the limit, and below it the
   * attempt is counted before it is checked, so that concurrent guesses cannot pass the limit together (the
   * count is taken back if the attempt succeeds). An address this instance knows no failure of is checked
   * first and counted only on failure, so that the requests of a working integration cost no counter read;
   * its first failure here is refused with 429 when the shared count (other instances' failures included)
   * is over the limit, and from then on the strict path applies.
   */
  private knowsFailures(ip: string): boolean {
    return !!this.rules.failedAuth && this.counters.knownHits(this.recent.of('failedAuth', ip), this.clock.now()) > 0;
  }

  private async beginAttempt(ip: string, res: Response): Promise<{ reserved: boolean }> {
    const rule = this.rules.failedAuth;
    if (!rule) return { reserved: false };
    const now = this.clock.now();
    const key = this.recent.of('failedAuth', ip);
    if (this.counters.knownHits(key, now) <= 0) return { reserved: false };
    const seen = await this.counters.peek(key, now);
    if (!seen || seen.hits <= 0) return { reserved: false };
    if (seen.hits >= rule.limit) throw refuse(res, 'failedAuth', decide(rule, seen.hits + 1, seen.resets_at, now));
    await this.enforce('failedAuth', ip, res, false);
    return { reserved: true };
  }

  /** Ends an attempt begun by `beginAttempt`: a failure stays counted (429 past the limit), a success counts nothing. */
  private async endAttempt(ip: string, attempt: { reserved: boolean }, failed: boolean, res: Response): Promise<void> {
    if (failed && !attempt.reserved) {
      const d = await this.consume('failedAuth', ip);
      if (d?.exceeded) throw refuse(res, 'failedAuth', d);
    }
    if (!failed && attempt.reserved) await this.release('failedAuth', ip);
  }

  /**
   * Wraps authentication: an attempt that carries credentials (an `Authorization` header) counts against
   * the client IP's failed authentication limit when it fails (`beginAttempt`); an authenticated caller then
   * counts against its key's limit, whose X-RateLimit-* headers go on every authenticated answer. A request
   * without credentials guesses nothing and counts nothing, also with a host's own hook (`custom`), whose
   * `null` may mean "not signed in"; such a hook reports wrong credentials it finds elsewhere (a cookie of
   * its own) by throwing a 401 FormloomError, which counts.
   */
  authenticate(hook: AuthenticateHook, custom: boolean): AuthenticateHook {
    if (!this.rules.failedAuth && !this.rules.perKey) return hook;
    return async (req) => {
      const ip = clientIp(req);
      const res = req.res!;
      // Without an Authorization header nothing is guessed: a plain 401, the default's session cookie (a
      // 256-bit token: not worth a guess) or a host's own session, whose user counts against the per-key limit.
      if (!req.headers.authorization) {
        let principal;
        try {
          principal = await hook(req);
        } catch (e) {
          if (custom && isFormloomError(e) && e.status === 401) await this.endAttempt(ip, { reserved: false }, true, res);
          throw e;
        }
        if (principal) await this.enforce('perKey', principal.key_id ?? `user:${principal.user_id}`, res);
        return principal;
      }
      // An address this instance knows no failure of begins no attempt (`beginAttempt`): no await for it.
      const attempt = this.knowsFailures(ip) ? await this.beginAttempt(ip, res) : NOT_RESERVED;
      let principal;
      try {
        principal = await hook(req);
      } catch (e) {
        await this.endAttempt(ip, attempt, isFormloomError(e) && e.status === 401, res);
        throw e;
      }
      // A success without a reserved hit has nothing to end.
      if (!principal || attempt.reserved) await this.endAttempt(ip, attempt, !principal, res);
      if (!principal) return null;
      const counting = this.limit('perKey', principal.key_id ?? `user:${principal.user_id}`, res);
      if (counting) await counting;
      return principal;
    };
  }

  /** The route with its public and token limits applied around its handler. */
  guard = (spec: RouteSpec): RouteSpec => {
    const id = `${spec.method} ${spec.path}`;
    // A route that also serves anonymous callers (a signed link) limits those as a public route does.
    const pub = spec.scope === null || spec.anonymous ? (PUBLIC_ROUTES[id] ?? { limit: 'publicReads' as const, perForm: false }) : null;
    const failures = TOKEN_ROUTES[id];
    // An authenticated route answers 429 for its key or for its address's failures, a public one for its own limit.
    const limited =
      (pub ? !!this.rules[pub.limit] || (!!failures && !!this.rules.failedAuth) : false) || (spec.scope !== null && (!!this.rules.perKey || !!this.rules.failedAuth));
    const errors = limited ? [...new Set([...(spec.errors ?? []), 429])] : spec.errors;
    if (!pub && !failures) return { ...spec, errors };
    return {
      ...spec,
      errors,
      handler: async (ctx) => {
        const ip = clientIp(ctx.req);
        if (pub && !ctx.principal) await this.enforce(pub.limit, pub.perForm ? `${String(ctx.req.params.slug)}|${ip}` : ip, ctx.req.res!);
        if (!failures) return spec.handler(ctx);
        // Requests that send mail count before they run: past the limit nothing is sent.
        if (failures === 'all') {
          await this.enforce('failedAuth', ip, ctx.req.res!, false);
          return spec.handler(ctx);
        }
        const attempt = await this.beginAttempt(ip, ctx.req.res!);
        let wrongGuess = false;
        try {
          return await spec.handler(ctx);
        } catch (e) {
          wrongGuess = isFormloomError(e) && failures.includes(e.status);
          throw e;
        } finally {
          await this.endAttempt(ip, attempt, wrongGuess, ctx.req.res!);
        }
      },
    };
  };

  private maybePrune(now: Date) {
    if (now.getTime() < this.nextPrune) return;
    this.nextPrune = now.getTime() + PRUNE_EVERY_MS;
    // Housekeeping only: a failure here must not fail the request that happened to trigger it.
    this.counters.forgetEnded(now);
    this.store.prune(now.toISOString()).catch(() => undefined);
  }
}

/** Counter keys are hashed: bounded length whatever the slug, and no client address stored in clear. */
const hashedKey = (name: RateLimitName, subject: string) =>
  `${name}:${createHash('sha256').update(subject).digest('base64url').slice(0, 32)}`;

const RECENT_KEYS = 10_000;

/** Keys hashed lately, by limit and subject (one map per `RateLimits`): a busy key or address is hashed once, not at every request. */
class RecentKeys {
  private readonly keys = new Map<string, string>();

  of(name: RateLimitName, subject: string): string {
    const id = `${name}\u0000${subject}`;
    let key = this.keys.get(id);
    if (key === undefined) {
      key = hashedKey(name, subject);
      if (this.keys.size >= RECENT_KEYS) this.keys.delete(this.keys.keys().next().value as string);
      this.keys.set(id, key);
    }
    return key;
  }
}

function decide(rule: Required<RateLimitRule>, hits: number, resetsAt: string, now: Date, resetsMs = Date.parse(resetsAt)): Decision {
  const ms = resetsMs - now.getTime();
  return {
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - hits),
    resetsAt,
    retryAfter: Math.max(1, Math.ceil(ms / 1000)),
    exceeded: hits > rule.limit,
  };
}

const NOT_RESERVED = Object.freeze({ reserved: false });

function applyDecision(name: RateLimitName, d: Decision | null, res: Response, headers: boolean): void {
  if (!d) return;
  if (d.exceeded) throw refuse(res, name, d);
  if (headers) setLimitHeaders(res, d);
}

function setLimitHeaders(res: Response, d: Decision) {
  res.setHeader('X-RateLimit-Limit', String(d.limit));
  res.setHeader('X-RateLimit-Remaining', String(d.remaining));
  res.setHeader('X-RateLimit-Reset', d.resetsAt);
}

const MESSAGES: Record<RateLimitName, string> = {
  perKey: 'Too many requests for this API key',
  failedAuth: 'Too many failed authentication attempts from this address',
  submissions: 'Too many submissions to this form from this address',
  partialUpdates: 'Too many updates to responses of this form from this address',
  uploads: 'Too many uploads to this form from this address',
  publicReads: 'Too many requests from this address',
};

/**
 * The 429 of limit `name`. Its X-RateLimit-* headers are that limit's own (replacing any another limit set
 * earlier on the answer, such as the per-key or public-reads counter that let the request in): a client
 * reads the budget that refused it.
 */
function refuse(res: Response, name: RateLimitName, d: Decision): FormloomError {
  setLimitHeaders(res, d);
  // The error handler turns `retry_after` into the Retry-After header (seconds).
  return new FormloomError('RATE_LIMITED', `${MESSAGES[name]}; retry after ${d.retryAfter} s`, { retry_after: d.retryAfter });
}
