import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { User } from '../domain/types';
import { badRequest, conflict, FormloomError } from '../errors';
import type { Logger } from '../logger';
import { enqueueMail } from '../outbox/mail-handler';
import type { SecretBox } from '../crypto-box';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { type Deferred, MailLinkService } from './mail-links';
import { signUpFinishSchema } from './schemas';
import { hashPassword, isToken, tokenHash, verifyPassword } from './secrets';
import { type ClientMeta, type OpenedSession, SessionIssuer } from './session-issuer';

/** What a sign-up link's token carries until the link is followed: the form as it was sent. */
interface PendingAccount {
  email: string;
  first_name: string | null;
  last_name: string | null;
  password_hash: string;
}

const invalidToken = () => badRequest('The link is unknown, already used or expired', { reason: 'invalid_token' });

/**
 * Sign-up by mail (docs/accounts.md, "Signing up"): an open sign-up answers `202 {sent: true}` for every
 * address and makes no account. After the answer, an unknown address gets a link that makes the account
 * once followed with the password typed again; a known one gets a mail telling its owner that someone
 * tried, with the ways to sign in. Nothing is held for an address before its mailbox is proven, and the
 * answer says nothing about who has an account (docs/security.md).
 */
@injectable()
export class PendingSignUpService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(SessionIssuer) private readonly sessions: SessionIssuer,
    @inject(MailLinkService) private readonly links: MailLinkService,
  ) {}

  /** The answer now; the password's hash, the lookup and the mail in `work`, after the answer (never rejects). */
  request(input: { email: string; password: string; first_name?: string | null; last_name?: string | null }): Deferred {
    const email = input.email.toLowerCase();
    const work = async () => {
      try {
        // Hashed for both kinds of address: the same work whether or not the address has an account.
        const password_hash = await hashPassword(input.password, this.config.passwordHashCost);
        await this.storage.transaction(async (tx) => {
          const owner = await tx.users.findByEmail(email);
          if (owner) return this.tellOwner(tx, owner);
          const pending: PendingAccount = { email, first_name: input.first_name ?? null, last_name: input.last_name ?? null, password_hash };
          await this.links.queue(tx, { id: null, email }, 'signup', 'Finish making your Formloom account', (link) => [
            'Someone (we hope you) asked to make a Formloom account with this address.',
            '',
            `Finish it here, with the password you chose: ${link}`,
            '',
            'The link works once, for 24 hours. If you did not ask for an account, ignore this mail: none is made.',
          ], JSON.stringify(pending));
        });
        this.links.notify();
      } catch (e) {
        this.logger.error('sessions: a sign-up mail could not be queued', { error: (e as Error)?.message ?? String(e) });
      }
    };
    return { answer: { sent: true }, work };
  }

  private async tellOwner(tx: Storage, owner: User) {
    const base = this.config.publicUrl.replace(/\/+$/, '');
    await enqueueMail(tx, this.ids, this.clock, this.box, {
      to: owner.email,
      subject: 'Someone tried to make a Formloom account with your address',
      text: [
        'Someone (perhaps you) tried to make a new Formloom account with this address, which has one already.',
        'No account was made and nothing changed.',
        '',
        `To sign in: ${base}/signin`,
        `Forgot the password? Ask for a reset link: ${base}/forgot`,
        '',
        'If it was not you, you need not do anything.',
      ].join('\n'),
    });
  }

  /**
   * `POST /auth/signup/finish`: the sign-up link's token and the password chosen at sign-up make the
   * account (its address proven) and open its session. The password is asked again so that a mailbox's
   * owner who follows a link someone else asked for makes nothing: 401 `invalid_credentials`, and the link
   * still works for whoever knows the password. 409 when the address has an account by now.
   */
  async finish(body: unknown, meta: ClientMeta): Promise<OpenedSession> {
    const input = parseBody(signUpFinishSchema, body);
    if (!isToken(input.token)) throw invalidToken();
    const now = this.clock.now().toISOString();
    return this.storage.transaction(async (tx) => {
      const used = await tx.oneTimeTokens.consume(tokenHash(this.config.secretKey, 'signup', input.token), 'signup', now);
      const pending = used?.data ? (JSON.parse(used.data) as PendingAccount) : null;
      if (!pending) throw invalidToken();
      // A wrong password rolls the transaction back: the link is not spent.
      if (!(await verifyPassword(input.password, pending.password_hash))) {
        throw new FormloomError('UNAUTHORIZED', 'This is not the password chosen when signing up', { reason: 'invalid_credentials' });
      }
      if (await tx.users.findByEmail(pending.email)) throw conflict('An account with this email exists: sign in, or reset its password', { field: 'email' });
      const user: User = {
        id: this.ids.id('usr'),
        email: pending.email,
        first_name: pending.first_name,
        last_name: pending.last_name,
        plan: 'free',
        email_verified: true,
        created_at: now,
        updated_at: now,
      };
      await tx.users.insert(user);
      await tx.credentials.setPassword({ user_id: user.id, password_hash: pending.password_hash, updated_at: now });
      return this.sessions.open(tx, user, meta);
    });
  }
}
