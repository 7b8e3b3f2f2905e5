import { inject, injectable } from 'tsyringe';
import type { Invitation, User } from '../domain/types';
import type { SignupMode } from '../domain/sign-in';
import { FormloomError, conflict, forbidden, isFormloomError } from '../errors';
import { sha256Hex } from '../hashing';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { InvitationService } from '../teams/invitation-service';
import { hashPassword, verifyPassword } from './secrets';
import { signInSchema, signUpSchema } from './schemas';
import { MailLinkService } from './mail-links';
import { type ClientMeta, type OpenedSession, SessionIssuer, sessionPrincipal } from './session-issuer';

const invalidCredentials = () => new FormloomError('UNAUTHORIZED', 'The email or password is wrong', { reason: 'invalid_credentials' });

/** Sign-up with a password (signup modes, the first account as admin, invitations) and password sign-in (docs/accounts.md). */
@injectable()
export class PasswordSignInService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(SessionIssuer) private readonly sessions: SessionIssuer,
    @inject(InvitationService) private readonly invitations: InvitationService,
    @inject(MailLinkService) private readonly links: MailLinkService,
  ) {}

  /** `GET /auth/config`: what the sign-in screens may offer. */
  async describe(mode: SignupMode) {
    const { total } = await this.storage.users.list({ offset: 0, limit: 1 });
    return { signup: mode, has_users: total > 0, passkeys: true, email_links: true };
  }

  /**
   * Makes an account with a password and opens its session. `open` admits anyone; `invite` admits the
   * addresses with a pending team invitation; `closed` nobody; the first account of an empty instance is
   * always admitted and takes the admin slot. With `invitation_token`, the invitation is accepted.
   */
  async signUp(body: unknown, mode: SignupMode, meta: ClientMeta): Promise<OpenedSession & { invitation: Record<string, unknown> | null }> {
    const input = parseBody(signUpSchema, body);
    const email = input.email.toLowerCase();
    const now = this.clock.now().toISOString();
    const invitation = input.invitation_token ? await this.pendingInvitation(input.invitation_token, now) : null;
    if (input.invitation_token && invitation?.email !== email) {
      throw forbidden(invitation ? 'This invitation was sent to another email address' : 'The invitation is unknown, used or expired', {
        reason: invitation ? 'email_mismatch' : 'invalid_invitation',
      });
    }
    const passwordHash = await hashPassword(input.password);
    const user: User = {
      id: this.ids.id('usr'),
      email,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      plan: 'free',
      email_verified: false,
      created_at: now,
      updated_at: now,
    };
    const opened = await this.storage.transaction(async (tx) => {
      const empty = (await tx.users.list({ offset: 0, limit: 1 })).total === 0;
      const invited = !!invitation || (mode === 'invite' && (await tx.invitations.hasPendingForEmail(email, now)));
      if (!empty) this.admit(mode, invited);
      if (await tx.users.findByEmail(email)) throw conflict('An account with this email exists', { field: 'email' });
      await tx.users.insert(user);
      await tx.credentials.setPassword({ user_id: user.id, password_hash: passwordHash, updated_at: now });
      // Of two first sign-ups racing on an empty instance one takes the admin slot; the other is admitted
      // only as the mode would admit it anyway.
      if (empty && !(await tx.credentials.claimAdmin(user.id, now))) this.admit(mode, invited);
      await this.links.queueVerification(tx, user);
      return this.sessions.open(tx, user, meta);
    });
    this.links.notify();
    let joined: Record<string, unknown> | null = null;
    if (input.invitation_token) {
      try {
        joined = await this.invitations.accept(sessionPrincipal(opened.session), input.invitation_token);
      } catch (e) {
        // The account stands; the invitation may have been cancelled or accepted meanwhile.
        if (!isFormloomError(e)) throw e;
      }
    }
    return { ...opened, invitation: joined };
  }

  private admit(mode: SignupMode, invited: boolean) {
    if (mode === 'closed') throw forbidden('Sign-up is closed on this instance: ask its administrator for an account', { reason: 'signup_closed' });
    if (mode === 'invite' && !invited) {
      throw forbidden('Sign-up is by invitation on this instance: use the address a team invitation was sent to', { reason: 'signup_invite_only' });
    }
  }

  /** The pending, unexpired invitation of a token, else `null`. */
  private async pendingInvitation(token: string, now: string): Promise<Invitation | null> {
    const inv = /^[0-9a-f]{64}$/.test(token) ? await this.storage.invitations.findByTokenHash(sha256Hex(token)) : null;
    return inv && inv.status === 'pending' && inv.expires_at > now ? inv : null;
  }

  /** Checks email and password and opens a new session; 401 `invalid_credentials` for any mismatch. */
  async signIn(body: unknown, meta: ClientMeta): Promise<OpenedSession> {
    const input = parseBody(signInSchema, body);
    const user = await this.storage.users.findByEmail(input.email.trim().toLowerCase());
    const stored = user ? await this.storage.credentials.findPassword(user.id) : null;
    // Unknown accounts are checked against a decoy hash: the answer takes as long either way.
    if (!(await verifyPassword(input.password, stored?.password_hash ?? null)) || !user) throw invalidCredentials();
    return this.sessions.open(this.storage, user, meta);
  }

}
