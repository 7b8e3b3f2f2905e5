import type { AuthenticationResponseJSON, WebAuthnCredential, RegistrationResponseJSON } from '@simplewebauthn/server';
import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { OneTimeTokenPurpose, PasskeyRecord } from '../domain/sign-in';
import type { Principal } from '../domain/types';
import { badRequest, conflict, FormloomError, notFound } from '../errors';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { passkeyFinishSchema, passkeyOptionsSchema } from './schemas';
import { isToken, newToken, tokenHash } from './secrets';
import { type ClientMeta, type OpenedSession, SessionIssuer } from './session-issuer';

/**
 * The WebAuthn library (and the ASN.1 stack under it, some 300 modules) is loaded at the first passkey
 * ceremony, not at start: most instances never see one, and it weighed 15 MB of the resident memory at
 * rest (docs/benchmarks.md, "Where the memory goes").
 */
const webauthn = () => import('@simplewebauthn/server');

/** How long a WebAuthn ceremony may take between its options and its answer. */
const CHALLENGE_MS = 5 * 60_000;

const refused = () => new FormloomError('UNAUTHORIZED', 'The passkey was not accepted', { reason: 'invalid_credentials' });

/**
 * Whether browsers will run WebAuthn for this public URL: its host must be a domain name (not an IP
 * address) in a secure context (https, or `localhost`). On `http://127.0.0.1:3000` the sign-in screens offer
 * no passkeys; `http://localhost:3000` works.
 */
export function passkeysAvailable(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  const host = url.hostname;
  const ip = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[');
  const local = host === 'localhost' || host.endsWith('.localhost');
  return !ip && (url.protocol === 'https:' || local);
}

/** The options endpoints take an optional JSON object (no field is read yet); anything else is 400, not ignored. */
const optionsBody = (body: unknown) => (body === undefined ? {} : parseBody(passkeyOptionsSchema, body));

const present = (p: PasskeyRecord) => ({ id: p.id, name: p.name, created_at: p.created_at, last_used_at: p.last_used_at });

/**
 * Passkeys (WebAuthn, docs/accounts.md): registered from the account page after a first sign-in, then a
 * way to sign in. Challenges are one-time tokens in storage, so any instance may finish a ceremony another
 * began. The relying party is the public URL: its host name is the RP ID and its origin the only origin.
 */
@injectable()
export class PasskeyService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(SessionIssuer) private readonly sessions: SessionIssuer,
  ) {}

  private get rp() {
    const url = new URL(this.config.publicUrl);
    return { id: url.hostname, origin: url.origin };
  }

  /** `POST /account/passkeys/options`: registration options for `startRegistration`, and the challenge's id. */
  async registrationOptions(principal: Principal, body: unknown = {}) {
    optionsBody(body);
    const user = await this.storage.users.findById(principal.user_id);
    if (!user) throw notFound('User');
    const existing = await this.storage.passkeys.listByUser(user.id);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: 'Formloom',
      rpID: this.rp.id,
      userName: user.email,
      userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const challenge_id = await this.keepChallenge('passkey_registration', user.id, options.challenge);
    return { challenge_id, options: options as unknown as Record<string, unknown> };
  }

  /** `POST /account/passkeys`: verifies the authenticator's answer and stores the credential. */
  async register(principal: Principal, body: unknown) {
    const input = parseBody(passkeyFinishSchema, body);
    const challenge = await this.useChallenge('passkey_registration', input.challenge_id);
    if (!challenge || challenge.user_id !== principal.user_id) throw badRequest('The passkey challenge is unknown, used or expired', { reason: 'invalid_challenge' });
    let info;
    try {
      const result = await (await webauthn()).verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge.data,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: false,
      });
      info = result.verified ? result.registrationInfo : null;
    } catch (e) {
      throw badRequest(`The passkey could not be verified: ${(e as Error).message}`, { reason: 'invalid_passkey' });
    }
    if (!info) throw badRequest('The passkey could not be verified', { reason: 'invalid_passkey' });
    const record: PasskeyRecord = {
      id: this.ids.id('pk'),
      user_id: principal.user_id,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      name: input.name || 'Passkey',
      created_at: this.clock.now().toISOString(),
      last_used_at: null,
    };
    try {
      await this.storage.passkeys.insert(record);
    } catch (e) {
      if (e instanceof FormloomError && e.code === 'CONFLICT') throw conflict('This passkey is registered already', { reason: 'passkey_exists' });
      throw e;
    }
    return present(record);
  }

  /** `GET /account/passkeys`. */
  async list(principal: Principal) {
    return { passkeys: (await this.storage.passkeys.listByUser(principal.user_id)).map(present) };
  }

  /** `DELETE /account/passkeys/:id` (404 for another user's). */
  async remove(principal: Principal, id: string): Promise<void> {
    if (!(await this.storage.passkeys.delete(principal.user_id, id))) throw notFound('Passkey');
  }

  /** `POST /auth/passkeys/options`: authentication options for `startAuthentication` (any of the instance's passkeys). */
  async authenticationOptions(body: unknown = {}) {
    optionsBody(body);
    const options = await (await webauthn()).generateAuthenticationOptions({ rpID: this.rp.id, userVerification: 'preferred' });
    const challenge_id = await this.keepChallenge('passkey_authentication', null, options.challenge);
    return { challenge_id, options: options as unknown as Record<string, unknown> };
  }

  /** `POST /auth/passkeys/signin`: verifies the assertion and opens a session; 401 `invalid_credentials` otherwise. */
  async signIn(body: unknown, meta: ClientMeta): Promise<OpenedSession> {
    const input = parseBody(passkeyFinishSchema, body);
    const challenge = await this.useChallenge('passkey_authentication', input.challenge_id);
    const passkey = challenge ? await this.storage.passkeys.findByCredentialId(input.response.id) : null;
    if (!challenge || !passkey) throw refused();
    let newCounter: number;
    try {
      const result = await (await webauthn()).verifyAuthenticationResponse({
        response: input.response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge.data,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as WebAuthnCredential['transports'],
        },
        requireUserVerification: false,
      });
      if (!result.verified) throw refused();
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      throw refused();
    }
    // A counter that did not grow means a cloned authenticator: refused (docs/security.md).
    if (!(await this.storage.passkeys.recordUse(passkey.id, newCounter, this.clock.now().toISOString()))) throw refused();
    const user = await this.storage.users.findById(passkey.user_id);
    if (!user) throw refused();
    return this.sessions.open(this.storage, user, meta);
  }

  private async keepChallenge(purpose: OneTimeTokenPurpose, userId: string | null, challenge: string): Promise<string> {
    const id = newToken();
    const now = this.clock.now();
    await this.storage.oneTimeTokens.insert({
      id: this.ids.id('ott'),
      token_hash: tokenHash(this.config.secretKey, purpose, id),
      purpose,
      user_id: userId,
      data: challenge,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CHALLENGE_MS).toISOString(),
      used_at: null,
    });
    return id;
  }

  /** The challenge of a ceremony, used once: `null` when unknown, used or expired. */
  private async useChallenge(purpose: OneTimeTokenPurpose, id: string): Promise<{ user_id: string | null; data: string } | null> {
    if (!isToken(id)) return null;
    const used = await this.storage.oneTimeTokens.consume(tokenHash(this.config.secretKey, purpose, id), purpose, this.clock.now().toISOString());
    return used?.data ? { user_id: used.user_id, data: used.data } : null;
  }
}
