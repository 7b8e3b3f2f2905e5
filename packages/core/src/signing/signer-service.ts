import { randomInt } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { SecretBox } from '../crypto-box';
import type { SigningSessionRecord, SigningSlotRecord } from '../domain/signing';
import { badRequest, conflict, forbidden, FormloomError, notFound } from '../errors';
import { presentTheme } from '../forms/presenters';
import type { FormloomEvents } from '../events';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { SignedDocumentRenderer } from '../ports/signed-documents';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { publicStatus } from './presenters';
import { contractIncludesSlot, contractsOf } from './seal-handler';
import { declineSchema, ESIGN_CONSENT, signSchema, verifyPasswordSchema } from './schemas';
import * as access from './signer-access';
import { checkPasswordHash } from '../password-hash';
import { codeMail, notificationMail } from './signing-mails';
import { SigningKit } from './signing-support';

/** Where a signer's request came from, for the audit trail. */
export interface SignerMeta {
  ip: string | null;
  user_agent: string | null;
  access_token?: string;
}

const notActive = (status: string) => conflict(`The signing session is ${status}`, { reason: 'session_not_active' });

/** The signer's side, by short code (public; docs/signing.md, "Signing"). */
@injectable()
export class SignerService {
  private readonly kit: SigningKit;
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) ids: IdGenerator,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.SignedDocuments) private readonly renderer: SignedDocumentRenderer,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
  ) {
    this.kit = new SigningKit(ids, clock, box);
  }

  private async resolve(code: string) {
    const slot = await this.storage.signing.findSlotByCode(code);
    const session = slot && (await this.storage.signing.findSession(slot.session_id));
    if (!slot || !session) throw notFound('Signing link');
    return { slot, session };
  }

  /** Resolves the link and, for a password-protected session, checks the `X-Access-Token`. */
  private async authorized(code: string, meta: SignerMeta) {
    const found = await this.resolve(code);
    if (found.session.password_hash) access.checkAccessToken(this.box, code, meta.access_token, this.clock.now());
    return found;
  }

  private isTurn(session: SigningSessionRecord, slot: SigningSlotRecord, slots: SigningSlotRecord[]) {
    if (publicStatus(session, this.clock.now()) !== 'active' || slot.status !== 'pending') return false;
    return session.signing_order === 'any' || slots.every((s) => s.slot_number >= slot.slot_number || s.status === 'signed');
  }

  /**
   * The link's context. Beyond the session's state it says where this signer stands (`slot_status`) and,
   * once the session is sealed and its `copy_mode` lets signers have copies, which sealed documents the
   * signer may download (`documents`; the download itself still needs the access token when one is due).
   */
  async context(code: string) {
    const { slot, session } = await this.resolve(code);
    const slots = await this.storage.signing.listSlots(session.id);
    const kind = copyKind(session, slot);
    const contracts = kind ? await contractsOf(this.storage, session.id) : [];
    const mine = new Set(contracts.filter((c) => contractIncludesSlot(c, slot.slot_number)).map((c) => c.question_id));
    const documents = kind ? (await this.storage.signing.listDocuments(session.id, kind)).filter((d) => mine.has(d.question_id)) : [];
    return {
      form_id: session.form_id,
      session_id: session.id,
      slot_number: slot.slot_number,
      slot_label: slot.slot_label,
      status: publicStatus(session, this.clock.now()),
      requires_password: !!session.password_hash,
      requires_email_verification: session.require_email_verification,
      signing_order: session.signing_order,
      is_turn: this.isTurn(session, slot, slots),
      slot_status: slot.status,
      copy_mode: session.copy_mode,
      documents: documents.map((d) => ({ id: d.id, question_id: d.question_id, question_title: d.question_title })),
      // Roles only (no names): what a signer who signed is told is still missing.
      still_to_sign: slots.filter((s) => s.status === 'pending').map((s) => ({ slot_number: s.slot_number, slot_label: s.slot_label })),
    };
  }

  /** What the signer's page (`/s/<short_code>`) shows before its script runs: the form's title and theme; 404 for an unknown link. */
  async page(code: string) {
    const { session } = await this.resolve(code);
    const form = await this.storage.forms.findById(session.form_id);
    if (!form) throw notFound('Signing link');
    return { form_title: form.title, theme: presentTheme(form) as Record<string, unknown> };
  }

  /** 200 with a token, or the documented 401 `{error: "<message>"}`; failed tries are limited per link. */
  async verifyPassword(code: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const { session } = await this.resolve(code);
    const { password } = parseBody(verifyPasswordSchema, body ?? {});
    const now = this.clock.now();
    const key = `signing_password:${code}`;
    // Each try is counted before the check and given back when right: tries at once cannot pass the limit.
    const counter = await this.storage.rateLimits.hit(key, now.toISOString(), new Date(now.getTime() + access.ATTEMPT_WINDOW_MS).toISOString());
    if (counter.hits > access.MAX_PASSWORD_FAILURES) {
      throw new FormloomError('RATE_LIMITED', 'Too many wrong passwords for this link; try again later', { retry_after: Math.max(1, Math.ceil((Date.parse(counter.resets_at) - now.getTime()) / 1000)) });
    }
    if (session.password_hash && !(await checkPasswordHash(password, session.password_hash))) return { status: 401, body: { error: 'Wrong password' } };
    await this.storage.rateLimits.release(key, now.toISOString());
    return { status: 200, body: { success: true, access_token: access.issueAccessToken(this.box, code, now) } };
  }

  /**
   * The contracts to read; each view is recorded (`document_viewed`), the first also on the link. A pending
   * link of a session that is no longer active (voided, declined, expired) is invalidated: 409
   * `session_not_active`, nothing recorded. Parties who signed or declined may read theirs again.
   */
  async document(code: string, meta: SignerMeta) {
    const { slot, session } = await this.authorized(code, meta);
    const status = publicStatus(session, this.clock.now());
    if (slot.status === 'pending' && status !== 'active') throw notActive(status);
    const at = this.kit.nowIso();
    if (!slot.viewed_at) {
      await this.storage.transaction(async (tx) => {
        await tx.signing.updateSlot(session.id, slot.slot_number, null, { viewed_at: at, viewed_ip: meta.ip, viewed_user_agent: meta.user_agent, updated_at: at });
      });
    }
    await this.kit.audit(this.storage, session.id, { action: 'document_viewed', slot_number: slot.slot_number, actor_email: slot.email, ip_address: meta.ip, user_agent: meta.user_agent });
    const slots = await this.storage.signing.listSlots(session.id);
    return {
      session_id: session.id,
      slot_number: slot.slot_number,
      // Only the contracts whose signer_slots name this link's slot (or that name none).
      contracts: (await contractsOf(this.storage, session.id)).filter((c) => contractIncludesSlot(c, slot.slot_number)).map((c) => ({ question_id: c.question_id, title: c.title, document: c.document })),
      signers: slots
        .filter((s) => !session.hide_other_signers || s.slot_number === slot.slot_number)
        .map((s) => ({ slot_number: s.slot_number, slot_label: s.slot_label, first_name: s.first_name, last_name: s.last_name, status: s.status })),
    };
  }

  /** Emails a 6-digit code (hashed at rest, 10 minutes) when the session requires email verification. */
  async sendCode(code: string, meta: SignerMeta, email?: string) {
    const { slot, session } = await this.authorized(code, meta);
    if (!session.require_email_verification) throw badRequest('This session does not use email verification', { reason: 'email_verification_off' });
    const status = publicStatus(session, this.clock.now());
    if (status !== 'active' || slot.status !== 'pending') throw notActive(status);
    const to = slot.email ?? email;
    if (!to) throw badRequest('email: the signer has no email address on file; give one', { field: 'email' });
    const now = this.clock.now();
    // Five sends per code lifetime (docs/signing.md): once the last code mailed has expired the count starts
    // again, so `Retry-After` says when a send works again.
    const lastExpiry = slot.code_expires_at ? Date.parse(slot.code_expires_at) : 0;
    const retryAfter = Math.max(1, Math.ceil((lastExpiry - now.getTime()) / 1000));
    const tooMany = () => new FormloomError('RATE_LIMITED', `Too many codes sent for this link; retry after ${retryAfter} s`, { retry_after: retryAfter });
    const windowOver = lastExpiry <= now.getTime();
    if (slot.code_sends >= access.MAX_CODE_SENDS && !windowOver) throw tooMany();
    const digits = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const form = await this.storage.forms.findById(session.form_id);
    await this.storage.transaction(async (tx) => {
      if (slot.code_sends >= access.MAX_CODE_SENDS) await tx.signing.updateSlot(session.id, slot.slot_number, ['pending'], { code_sends: 0 });
      // Counted by one conditional update: sends at once stay within the limit.
      if (!(await tx.signing.countSlotAttempt(session.id, slot.slot_number, 'code_sends', access.MAX_CODE_SENDS))) throw await this.refusal(tx, slot, tooMany);
      const updated = await tx.signing.updateSlot(session.id, slot.slot_number, ['pending'], {
        code_hash: access.hashCode(digits, code), code_expires_at: new Date(now.getTime() + access.CODE_TTL_MS).toISOString(),
        code_attempts: 0, email: to.toLowerCase(), updated_at: now.toISOString(),
      });
      if (!updated) throw await this.refusal(tx, slot, () => notActive('no longer pending for this signer'));
      await this.kit.mail(tx, codeMail(to, digits, form?.title ?? 'your contract'), { sessionId: session.id, kind: 'email_code', slot_number: slot.slot_number });
    });
    this.events.emit('outbox.enqueued', { kind: 'mail' });
    return { success: true, sent_to: to };
  }

  /**
   * Why a counted attempt was refused: the limit, or the slot gone with its session (its form deleted
   * meanwhile), which is the link's 404 and not a limit to wait out.
   */
  private async refusal(storage: Storage, slot: SigningSlotRecord, tooMany: () => FormloomError): Promise<FormloomError> {
    return (await storage.signing.findSlotByCode(slot.short_code)) ? tooMany() : notFound('Signing link');
  }

  /** Each try spends one of the code's attempts first (one conditional update), so tries at once count too. */
  private async checkEmailCode(session: SigningSessionRecord, slot: SigningSlotRecord, given: string | undefined) {
    const now = this.clock.now();
    // The next step is `send-code`, which may be called at once.
    const tooMany = () => new FormloomError('RATE_LIMITED', 'Too many wrong codes: request a new one', { retry_after: 0 });
    if (slot.code_attempts >= access.MAX_CODE_ATTEMPTS) throw tooMany();
    const invalid = () => badRequest('email_code: wrong or expired code', { field: 'email_code', reason: 'invalid_email_code' });
    if (!given) throw badRequest('email_code: this session requires the code emailed to the signer (send-code)', { field: 'email_code', reason: 'email_code_required' });
    if (!(await this.storage.signing.countSlotAttempt(session.id, slot.slot_number, 'code_attempts', access.MAX_CODE_ATTEMPTS))) throw await this.refusal(this.storage, slot, tooMany);
    const fresh = slot.code_expires_at !== null && Date.parse(slot.code_expires_at) > now.getTime();
    if (!fresh || !access.codeMatches(given, slot.short_code, slot.code_hash)) throw invalid();
  }

  async sign(code: string, body: unknown, meta: SignerMeta) {
    const { slot, session } = await this.authorized(code, meta);
    const input = parseBody(signSchema, body ?? {});
    const problem = this.renderer.checkSignature(input.signature);
    if (problem) throw badRequest(`signature: ${problem}`, { field: 'signature' });
    await this.assertPrintable({ first_name: input.first_name, last_name: input.last_name, signature: input.signature.type === 'typed' ? input.signature.value : undefined });
    const status = publicStatus(session, this.clock.now());
    if (status !== 'active') throw notActive(status);
    if (slot.status !== 'pending') throw conflict(`This slot has already ${slot.status}`, { reason: 'slot_not_pending' });
    const slots = await this.storage.signing.listSlots(session.id);
    if (!this.isTurn(session, slot, slots)) throw conflict('Earlier signers have not signed yet', { reason: 'not_your_turn' });
    if (session.require_email_verification) await this.checkEmailCode(session, slot, input.email_code);
    const at = this.kit.nowIso();
    const signer = {
      first_name: input.first_name ?? slot.first_name, last_name: input.last_name ?? slot.last_name,
      email: (input.email ?? slot.email)?.toLowerCase() ?? null,
    };
    const form = await this.storage.forms.findById(session.form_id);
    const title = form?.title ?? '';
    const completed = await this.storage.transaction(async (tx) => {
      // Holds the session's row until the commit: the signatures, a void and a deletion of one session take
      // turns, so the last signature sees every other one and the session ends one way only.
      await this.holdActive(tx, session.id, at);
      const won = await tx.signing.updateSlot(session.id, slot.slot_number, ['pending'], {
        ...signer, status: 'signed', signature: input.signature, send_copy: input.send_copy ?? false, signed_at: at, signed_ip: meta.ip,
        signed_user_agent: meta.user_agent, updated_at: at, ...(session.require_email_verification ? { email_verified_at: at, code_hash: null } : {}),
      });
      if (!won) throw conflict('This slot has already signed', { reason: 'slot_not_pending' });
      const name = [signer.first_name, signer.last_name].filter(Boolean).join(' ') || null;
      await this.kit.audit(tx, session.id, { action: 'signed', slot_number: slot.slot_number, actor_email: signer.email, actor_name: name, ip_address: meta.ip, user_agent: meta.user_agent, details: { signature_type: input.signature.type, ...(input.esign_consent ? { esign_consent: ESIGN_CONSENT } : {}) } });
      await this.kit.notify(tx, session, 'each_signature', (to) => notificationMail(to, 'each_signature', title, session.id, `${slot.slot_label} (${name ?? 'unnamed'}) signed.`));
      return this.completeIfAllSigned(tx, session, title, at);
    });
    this.events.emit('outbox.enqueued', { kind: completed ? 'signing_seal' : 'mail' });
    return { slot_number: slot.slot_number, status: 'signed' as const, session_status: completed ? 'fully_signed' : publicStatus((await this.storage.signing.findSession(session.id)) ?? session, this.clock.now()) };
  }

  /**
   * Takes the session's row for the rest of the transaction when it is still `active` (a same-status
   * transition); else the link is gone (404) or the session ended meanwhile (409 `session_not_active`).
   */
  private async holdActive(tx: Storage, sessionId: string, at: string) {
    if (await tx.signing.transitionSession(sessionId, ['active'], 'active', { updated_at: at })) return;
    const now = await tx.signing.findSession(sessionId);
    if (!now) throw notFound('Signing link');
    throw notActive(publicStatus(now, this.clock.now()));
  }

  /**
   * In the signature's transaction, which holds the session: every slot signed moves the session to
   * `completing` and queues its one seal job.
   */
  private async completeIfAllSigned(tx: Storage, session: SigningSessionRecord, title: string, at: string): Promise<boolean> {
    const slots = await tx.signing.listSlots(session.id);
    if (!slots.every((s) => s.status === 'signed')) return false;
    if (!(await tx.signing.transitionSession(session.id, ['active'], 'completing', { updated_at: at }))) return false;
    await this.kit.audit(tx, session.id, { action: 'all_signed' });
    await this.kit.sealJob(tx, session, 'complete');
    await this.kit.notify(tx, session, 'all_complete', (to) => notificationMail(to, 'all_complete', title, session.id, 'Every party has signed.'));
    return true;
  }

  async decline(code: string, body: unknown, meta: SignerMeta) {
    const { slot, session } = await this.authorized(code, meta);
    const { reason } = parseBody(declineSchema, body ?? {});
    const status = publicStatus(session, this.clock.now());
    if (status !== 'active') throw notActive(status);
    const at = this.kit.nowIso();
    const form = await this.storage.forms.findById(session.form_id);
    await this.storage.transaction(async (tx) => {
      // The session first, then the slot: the order every writer of a session takes (no deadlock).
      await this.holdActive(tx, session.id, at);
      if (!(await tx.signing.updateSlot(session.id, slot.slot_number, ['pending'], { status: 'declined', declined_at: at, decline_reason: reason ?? null, updated_at: at }))) {
        throw conflict(`This slot has already ${slot.status}`, { reason: 'slot_not_pending' });
      }
      await tx.signing.transitionSession(session.id, ['active'], 'declined', { updated_at: at });
      await this.kit.audit(tx, session.id, { action: 'declined', slot_number: slot.slot_number, actor_email: slot.email, ip_address: meta.ip, user_agent: meta.user_agent, details: { reason: reason ?? null } });
      await this.kit.notify(tx, session, 'decline', (to) => notificationMail(to, 'decline', form?.title ?? '', session.id, `${slot.slot_label} declined${reason ? `: ${reason}` : '.'}`));
    });
    this.events.emit('outbox.enqueued', { kind: 'mail' });
    return { slot_number: slot.slot_number, status: 'declined' as const, session_status: 'declined' as const };
  }

  /** A signer's sealed copy (the link in the copy mail): the short code is the credential. */
  /** A name or typed signature with characters no font of the PDF has would be sealed differently: 400. */
  private async assertPrintable(fields: Record<string, string | null | undefined>) {
    if (!this.renderer.unsupportedCharacters) return;
    for (const [field, value] of Object.entries(fields)) {
      if (!value) continue;
      const missing = await this.renderer.unsupportedCharacters(value);
      if (missing.length) throw badRequest(`${field}: these characters cannot be printed in the signed PDF: ${missing.join(' ')}`, { field, reason: 'unsupported_characters', characters: missing });
    }
  }

  /** Whether the slot is one of those that sign this contract (its `signer_slots`). */
  private async slotSigns(sessionId: string, questionId: string, slotNumber: number): Promise<boolean> {
    const contract = (await contractsOf(this.storage, sessionId)).find((c) => c.question_id === questionId);
    return !contract || contractIncludesSlot(contract, slotNumber);
  }

  async signedDocument(code: string, docId: string, meta: SignerMeta) {
    const { session, slot } = await this.authorized(code, meta);
    if (session.copy_mode === 'disabled') throw forbidden('This session gives signers no copies', { reason: 'copies_disabled' });
    const doc = await this.storage.signing.findDocument(session.id, docId);
    // The same rule as the context's `documents`: a link downloads exactly what its context lists.
    if (!doc || doc.kind !== copyKind(session, slot) || !(await this.slotSigns(session.id, doc.question_id, slot.slot_number))) throw notFound('Signed document');
    return doc;
  }
}

/**
 * Which sealed copies a signer's link may have (docs/decisions.md, "Signing sessions"): the signed ones of a
 * completed session, the `VOIDED` ones of a voided session only when this signer had signed (what they signed,
 * marked void), and none otherwise or when the session gives no copies.
 */
function copyKind(session: SigningSessionRecord, slot: SigningSlotRecord): 'signed' | 'voided' | null {
  if (session.copy_mode === 'disabled') return null;
  if (session.status === 'completed') return 'signed';
  if (session.status === 'voided' && slot.status === 'signed') return 'voided';
  return null;
}
