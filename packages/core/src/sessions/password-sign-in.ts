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
import { type Deferred, MailLinkService } from './mail-links';
import { PendingSignUpService } from './pending-signup';
import { passkeysAvailable } from './passkey-service';
import type { FormloomConfig } from '../config';
import { type ClientMeta, type OpenedSession, SessionIssuer, sessionPrincipal } from './session-issuer';

/** Thrown inside the sign-up transaction when the instance has an account after all: rolled back, then by mail. */
class NotFirst extends Error {}

const invalidCredentials = () => new FormloomError('UNAUTHORIZED', 'The email or password is wrong', { reason: 'invalid_credentials' });

/** Sign-up with a password (signup modes, the first account as admin, invitations) and password sign-in (docs/accounts.md). */
@injectable()
export class PasswordSignInService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(SessionIssuer) private readonly sessions: SessionIssuer,
    @inject(InvitationService) private readonly invitations: InvitationService,
    @inject(MailLinkService) private readonly links: MailLinkService,
    @inject(PendingSignUpService) private readonly pending: PendingSignUpService,
  ) {}

  /** `GET /auth/config`: what the sign-in screens may offer. */
  async describe(mode: SignupMode) {
    const { total } = await this.storage.users.list({ offset: 0, limit: 1 });
    return { signup: mode, has_users: total > 0, passkeys: passkeysAvailable(this.config.publicUrl), email_links: true };
  }

  /**
   * `POST /auth/signup` (docs/accounts.md, "Who may sign up"). The first account of an empty instance and a
   * sign-up with a pending invitation's token for its address are made at once and signed in (`opened`;
   * the invitation is accepted). Any other sign-up is by mail (`PendingSignUpService`): `open` answers
   * `{sent: true}` for every address and makes the account when the mailed link is followed; `invite` and
   * `closed` refuse it (an invitation's address is claimed with its token only).
   */
  async signUp(body: unknown, mode: SignupMode, meta: ClientMeta): Promise<{ opened: OpenedSession & { invitation: Record<string, unknown> | null } } | { deferred: Deferred }> {
    const input = parseBody(signUpSchema, body);
    const email = input.email.toLowerCase();
    const now = this.clock.now().toISOString();
    const invitation = input.invitation_token ? await this.pendingInvitation(input.invitation_token, now) : null;
    if (input.invitation_token && invitation?.email !== email) {
      throw forbidden(invitation ? 'This invitation was sent to another email address' : 'The invitation is unknown, used or expired', {
        reason: invitation ? 'email_mismatch' : 'invalid_invitation',
      });
    }
    const byMail = () => {
      this.admit(mode, false);
      return { deferred: this.pending.request(input) };
    };
    if (!invitation && (await this.storage.users.list({ offset: 0, limit: 1 })).total > 0) return byMail();
    const passwordHash = await hashPassword(input.password, this.config.passwordHashCost);
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
    let opened: OpenedSession;
    try {
      opened = await this.storage.transaction(async (tx) => {
        const empty = (await tx.users.list({ offset: 0, limit: 1 })).total === 0;
        if (!empty && !invitation) throw new NotFirst();
        if (!empty) this.admit(mode, true);
        if (await tx.users.findByEmail(email)) throw conflict('An account with this email exists', { field: 'email' });
        await tx.users.insert(user);
        await tx.credentials.setPassword({ user_id: user.id, password_hash: passwordHash, updated_at: now });
        // Of two first sign-ups racing on an empty instance one takes the admin slot; the other is admitted
        // only as the mode would admit it anyway (rolled back, and by mail when it has no invitation).
        if (empty && !(await tx.credentials.claimAdmin(user.id, now))) {
          if (!invitation) throw new NotFirst();
          this.admit(mode, true);
        }
        await this.links.queueVerification(tx, user);
        return this.sessions.open(tx, user, meta);
      });
    } catch (e) {
      if (e instanceof NotFirst) return byMail();
      throw e;
    }
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
    return { opened: { ...opened, invitation: joined } };
  }

  private admit(mode: SignupMode, invited: boolean) {
    if (mode === 'closed') throw forbidden('Sign-up is closed on this instance: ask its administrator for an account', { reason: 'signup_closed' });
    if (mode === 'invite' && !invited) {
      throw forbidden('Sign-up is by invitation on this instance: use the link of your invitation mail', { reason: 'signup_invite_only' });
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
    if (!(await verifyPassword(input.password, stored?.password_hash ?? null, this.config.passwordHashCost)) || !user) throw invalidCredentials();
    return this.sessions.open(this.storage, user, meta);
  }

}
