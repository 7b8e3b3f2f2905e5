import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { SecretBox } from '../crypto-box';
import type { User } from '../domain/types';
import type { OneTimeTokenPurpose } from '../domain/sign-in';
import { badRequest } from '../errors';
import type { FormloomEvents } from '../events';
import { enqueueMail } from '../outbox/mail-handler';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { Logger } from '../logger';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { emailOnlySchema, resetCompleteSchema, tokenSchema } from './schemas';
import { hashPassword, isToken, newToken, tokenHash } from './secrets';
import { type ClientMeta, type OpenedSession, presentUser, SessionIssuer } from './session-issuer';

/** How long each kind of mailed link works (docs/accounts.md). */
export const LINK_LIFETIME_MS: Record<'signin_link' | 'password_reset' | 'email_verification' | 'signup', number> = {
  signin_link: 15 * 60_000,
  signup: 86_400_000,
  password_reset: 60 * 60_000,
  email_verification: 7 * 86_400_000,
};

/** The workspace page each link opens; the token rides in the fragment, so it never reaches a server log. */
const PAGES = { signin_link: 'auth/link', password_reset: 'auth/reset', email_verification: 'auth/verify', signup: 'auth/finish' } as const;

/** A request whose answer goes out first: `work` (the lookup and the mail) runs after it and never rejects. */
export interface Deferred {
  answer: { sent: true };
  work: () => Promise<void>;
}

const invalidToken = () => badRequest('The link is unknown, already used or expired', { reason: 'invalid_token' });

/**
 * One-time links by mail (docs/accounts.md): sign-in links, password resets and email verification. Each
 * token is stored as an HMAC under the instance secret key and works once; the request endpoints answer the
 * same whether or not the address has an account.
 */
@injectable()
export class MailLinkService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(SessionIssuer) private readonly sessions: SessionIssuer,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /**
   * `POST /auth/email-link`: checks the body and answers; the returned `work`, run after the answer is sent,
   * mails a sign-in link when the address has an account. The answer waits for no lookup and no write, so
   * it is the same, in content and in time, for every address (docs/security.md).
   */
  requestSignInLink(body: unknown): Deferred {
    return this.deferred(body, (user) =>
      this.send(user, 'signin_link', 'Your sign-in link for Formloom', (link) => [
        'Someone (we hope you) asked for a link to sign in to Formloom.',
        '',
        `Sign in: ${link}`,
        '',
        'The link works once, for 15 minutes. If you did not ask for it, ignore this mail.',
      ]),
    );
  }

  /**
   * `POST /auth/email-link/verify`: the link's token opens a session and proves the address. `sessionUser`
   * is the account of the session the request presented, if any (see `prove`).
   */
  async signInWithLink(body: unknown, meta: ClientMeta, sessionUser: string | null = null): Promise<OpenedSession> {
    const { token } = parseBody(tokenSchema, body);
    return this.storage.transaction(async (tx) => {
      const user = await this.consume(tx, 'signin_link', token);
      return this.sessions.open(tx, await this.prove(tx, user, sessionUser), meta);
    });
  }

  /** `POST /auth/password-reset`: like `requestSignInLink`, with a reset link. */
  requestPasswordReset(body: unknown): Deferred {
    return this.deferred(body, (user) =>
      this.send(user, 'password_reset', 'Reset your Formloom password', (link) => [
        'Someone (we hope you) asked to reset the password of your Formloom account.',
        '',
        `Choose a new password: ${link}`,
        '',
        'The link works once, for an hour. If you did not ask for it, ignore this mail: your password stays as it is.',
      ]),
    );
  }

  /**
   * `POST /auth/password-reset/complete`: sets the new password, ends every session of the user and the
   * other reset links, and opens a new session.
   */
  async completePasswordReset(body: unknown, meta: ClientMeta, sessionUser: string | null = null): Promise<OpenedSession> {
    const input = parseBody(resetCompleteSchema, body);
    const hash = await hashPassword(input.password, this.config.passwordHashCost);
    return this.storage.transaction(async (tx) => {
      const user = await this.consume(tx, 'password_reset', input.token);
      const now = this.now();
      // Proven first: the new password is set after the proof, so it is the one that survives it.
      const verified = await this.prove(tx, user, sessionUser);
      await tx.credentials.setPassword({ user_id: user.id, password_hash: hash, updated_at: now });
      await tx.oneTimeTokens.revokeForUser(user.id, 'password_reset', now);
      await tx.signInSessions.deleteForUser(user.id, null);
      return this.sessions.open(tx, verified, meta);
    });
  }

  /** `POST /auth/verify-email`: marks the address verified when it is still the account's address (see `prove`). */
  async verifyEmail(body: unknown, sessionUser: string | null = null) {
    const { token } = parseBody(tokenSchema, body);
    const user = await this.storage.transaction(async (tx) => this.prove(tx, await this.consume(tx, 'email_verification', token), sessionUser));
    return { user: presentUser(user) };
  }

  /**
   * The first proof of an address (docs/security.md "An address claimed before its owner"): whoever set a
   * password, registered a passkey, made a key or holds a session before the address
   * was proven may not be its owner (anyone may sign up with any address), so the first proof ends every
   * session of the account, drops its password and passkeys and revokes the API keys made from its
   * sessions. Keys the operator made (`formloom key create`, `made_by: 'operator'`) stay: the operator,
   * not a claimant, chose to hand them out. One exception: a proof presented by a session of this very
   * account. Only someone who set or knows the account's credentials can hold such a session, and
   * following the mailed link shows they also hold the mailbox.
   */
  private async prove(tx: Storage, user: User, sessionUser: string | null): Promise<User> {
    if (user.email_verified) return user;
    const now = this.now();
    if (sessionUser !== user.id) {
      await tx.signInSessions.deleteForUser(user.id, null);
      await tx.credentials.deletePassword(user.id);
      await tx.passkeys.deleteForUser(user.id);
      for (const key of await tx.apiKeys.listByUser(user.id)) if (!key.revoked_at && key.made_by !== 'operator') await tx.apiKeys.revoke(key.id, now);
    }
    return (await tx.users.update(user.id, { email_verified: true, updated_at: now })) ?? user;
  }

  /** `POST /auth/verify-email/resend`: a new verification link (none when the address is verified). */
  async resendVerification(userId: string): Promise<{ sent: true }> {
    const user = await this.storage.users.findById(userId);
    if (user && !user.email_verified) {
      await this.storage.transaction((tx) => this.queueVerification(tx, user));
      this.notify();
    }
    return { sent: true };
  }

  /** Queues the verification mail of a new account in `tx` (call `notify` after the commit). */
  async queueVerification(tx: Storage, user: User): Promise<void> {
    await this.queue(tx, user, 'email_verification', 'Confirm your email address for Formloom', (link) => [
      'Welcome to Formloom. Please confirm that this address is yours:',
      '',
      link,
      '',
      'The link works once, for 7 days.',
    ]);
  }

  /** Wakes the outbox worker after mails were queued and committed. */
  notify() {
    this.events.emit('outbox.enqueued', { kind: 'mail' });
  }

  /**
   * The body checked now; the lookup and the mail in `work`, which the caller runs after answering. The
   * work never rejects: a failure is logged (the client was told `sent` already, as for a mail that bounces).
   */
  private deferred(body: unknown, mail: (user: User) => Promise<void>): Deferred {
    const { email } = parseBody(emailOnlySchema, body);
    const work = async () => {
      try {
        const user = await this.storage.users.findByEmail(email.trim().toLowerCase());
        if (user) await mail(user);
      } catch (e) {
        this.logger.error('sessions: a requested link could not be queued', { error: (e as Error)?.message ?? String(e) });
      }
    };
    return { answer: { sent: true }, work };
  }

  private async send(user: User, purpose: keyof typeof PAGES, subject: string, text: (link: string) => string[]) {
    await this.storage.transaction((tx) => this.queue(tx, user, purpose, subject, text));
    this.notify();
  }

  /**
   * Stores a one-time token of `purpose` for `to` and queues its mail in `tx`. `to.id` is `null` for a
   * sign-up not yet made; `data` is what the token carries (default: the address it was sent to).
   */
  async queue(tx: Storage, to: { id: string | null; email: string }, purpose: keyof typeof PAGES, subject: string, text: (link: string) => string[], data = to.email) {
    const token = newToken();
    const now = this.clock.now();
    await tx.oneTimeTokens.insert({
      id: this.ids.id('ott'),
      token_hash: tokenHash(this.config.secretKey, purpose, token),
      purpose,
      user_id: to.id,
      data,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]).toISOString(),
      used_at: null,
    });
    const link = `${this.config.publicUrl.replace(/\/+$/, '')}/${PAGES[purpose]}#token=${token}`;
    await enqueueMail(tx, this.ids, this.clock, this.box, { to: to.email, subject, text: text(link).join('\n') });
  }

  /** Uses a token of `purpose`: its user, whose address must still be the one the link was sent to; else 400 `invalid_token`. */
  private async consume(tx: Storage, purpose: OneTimeTokenPurpose, token: string): Promise<User> {
    if (!isToken(token)) throw invalidToken();
    const used = await tx.oneTimeTokens.consume(tokenHash(this.config.secretKey, purpose, token), purpose, this.now());
    const user = used?.user_id ? await tx.users.findById(used.user_id) : null;
    if (!used || !user || user.email !== used.data) throw invalidToken();
    return user;
  }

  private now() {
    return this.clock.now().toISOString();
  }
}
