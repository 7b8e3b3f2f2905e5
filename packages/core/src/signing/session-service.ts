import { inject, injectable } from 'tsyringe';
import type { SecretBox } from '../crypto-box';
import type { SigningSessionRecord, SigningSlotRecord } from '../domain/signing';
import type { Principal } from '../domain/types';
import { badRequest, conflict, notFound } from '../errors';
import type { FormloomEvents } from '../events';
import { authorizeForm } from '../forms/form-access';
import type { FormloomConfig } from '../config';
import { paging } from '../pagination';
import { hashPasswordAt } from '../password-hash';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { presentAuditEntry, presentDocument, presentListItem, presentSession, storedStatusesFor, publicStatus } from './presenters';
import { createSessionSchema, listSessionsQuery, voidSessionSchema } from './schemas';
import { signingRequestMail, voidNoticeMail } from './signing-mails';
import { requireContracts, requireContractsPlan, SigningKit, slotsOf } from './signing-support';

/** Signing sessions as the form's team sees them (API key, `forms` scope): docs/signing.md. */
@injectable()
export class SigningSessionService {
  private readonly kit: SigningKit;
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.SecretBox) box: SecretBox,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
  ) {
    this.kit = new SigningKit(ids, clock, box);
  }

  /** The audit trail names who acted for the team: the caller's email (null for a host's own user). */
  private async actor(principal: Principal) {
    return { actor_email: (await this.storage.users.findById(principal.user_id))?.email ?? null, ip_address: principal.ip_address ?? null };
  }

  /** 128 random bits, base64url: unguessable and safe in a URL. */
  private shortCode = () => Buffer.from(this.ids.secret(16), 'hex').toString('base64url');

  async create(principal: Principal, formId: string, body: unknown) {
    const form = await authorizeForm(this.storage, principal, formId, 'edit');
    await requireContractsPlan(this.storage, this.plans, form);
    const input = parseBody(createSessionSchema, body ?? {});
    const questions = await this.storage.questions.listByForm(formId);
    // No questions at all may mean the form was deleted since it was read: that is its 404.
    if (questions.length === 0 && !(await this.storage.forms.findById(formId))) throw notFound('Form');
    const contracts = requireContracts(questions);
    const slotDefs = slotsOf(contracts);
    const given = new Map<number, NonNullable<typeof input.signers>[number]>();
    for (const s of input.signers ?? []) {
      if (!slotDefs.some((d) => d.slot_number === s.slot_number)) {
        throw badRequest(`signers: the contract has no slot ${s.slot_number}`, { field: 'signers', reason: 'unknown_slot' });
      }
      if (given.has(s.slot_number)) throw badRequest(`signers: slot ${s.slot_number} is given twice`, { field: 'signers' });
      given.set(s.slot_number, s);
    }
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const actor = await this.actor(principal);
    const session: SigningSessionRecord = {
      id: this.ids.id('ses'),
      form_id: formId,
      created_by: principal.user_id,
      status: 'active',
      signing_order: input.signing_order ?? ((contracts[0].properties.default_signing_order as 'sequential' | 'any' | undefined) ?? 'any'),
      expires_at: new Date(now.getTime() + input.expiry_days * 86_400_000).toISOString(),
      hide_other_signers: input.hide_other_signers,
      copy_mode: input.copy_mode,
      password_hash: input.password ? await hashPasswordAt(input.password, this.config.passwordHashCost) : null,
      require_email_verification: input.require_email_verification,
      notify_emails: input.notify_emails,
      notify_events: [...new Set(input.notify_events)],
      custom_email_body: input.custom_email_body ?? null,
      created_at: nowIso,
      updated_at: nowIso,
      voided_at: null,
      void_reason: null,
      completed_at: null,
      expiry_notified_at: null,
    };
    const slots: SigningSlotRecord[] = slotDefs.map((d) => {
      const s = given.get(d.slot_number);
      return {
        session_id: session.id, slot_number: d.slot_number, slot_label: d.label, short_code: this.shortCode(),
        first_name: s?.first_name ?? null, last_name: s?.last_name ?? null, email: s?.email?.toLowerCase() ?? null,
        status: 'pending', signature: null, send_copy: false, viewed_at: null, viewed_ip: null, viewed_user_agent: null,
        signed_at: null, signed_ip: null, signed_user_agent: null, declined_at: null, decline_reason: null, code_hash: null,
        code_expires_at: null, code_attempts: 0, code_sends: 0, email_verified_at: null, updated_at: nowIso,
      };
    });
    await this.storage.transaction(async (tx) => {
      await tx.signing.insertSession(session, slots);
      await this.kit.audit(tx, session.id, { action: 'session_created', ...actor, details: { created_by: principal.user_id, form_title: form.title, form_version_id: form.published_version_id ?? null, contracts: contracts.map((q) => ({ question_id: q.id, title: q.title, document: String(q.properties.document ?? ''), slot_numbers: ((q.properties.signer_slots as { slot_number: number }[] | undefined) ?? []).map((x) => x.slot_number) })) } });
      if (input.send_signing_emails) {
        for (const slot of slots) if (slot.email) await this.kit.mail(tx, signingRequestMail(session, slot, form.title, this.config.publicUrl), { sessionId: session.id, kind: 'signing_request', slot_number: slot.slot_number });
      }
    });
    if (input.send_signing_emails) this.events.emit('outbox.enqueued', { kind: 'mail' });
    return presentSession(session, slots, now, this.config.publicUrl);
  }

  private async load(principal: Principal, sessionId: string, action: 'read' | 'edit') {
    const session = await this.storage.signing.findSession(sessionId);
    if (!session) throw notFound('Signing session');
    try {
      const form = await authorizeForm(this.storage, principal, session.form_id, action);
      return { session, form };
    } catch (e) {
      // A session of a form the caller cannot see does not exist for them.
      if ((e as { code?: string }).code === 'NOT_FOUND') throw notFound('Signing session');
      throw e;
    }
  }

  async list(principal: Principal, formId: string, query: unknown) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const q = parseBody(listSessionsQuery, query ?? {});
    // The raw values: `paging` clamps strings and numbers alike (docs/decisions.md "Lists and paging").
    const { page, per_page, offset } = paging((query ?? {}) as { page?: unknown; per_page?: unknown });
    const now = this.clock.now();
    const statuses = q.status ? storedStatusesFor(q.status) : null;
    // Expiry is read off the clock: `active` and `expired` split the stored `active` rows by `expires_at`.
    if (q.status === 'active' || q.status === 'expired') {
      const all = await this.storage.signing.listSessions(formId, statuses, 0, 1_000_000);
      const match = all.items.filter((s) => publicStatus(s, now) === q.status);
      const pageItems = match.slice(offset, offset + per_page);
      return { sessions: await this.items(pageItems, now), total: match.length, page, per_page };
    }
    const { items, total } = await this.storage.signing.listSessions(formId, statuses, offset, per_page);
    return { sessions: await this.items(items, now), total, page, per_page };
  }

  private async items(sessions: SigningSessionRecord[], now: Date) {
    return Promise.all(sessions.map(async (s) => presentListItem(s, await this.storage.signing.listSlots(s.id), now)));
  }

  async get(principal: Principal, sessionId: string) {
    const { session } = await this.load(principal, sessionId, 'read');
    return presentSession(session, await this.storage.signing.listSlots(session.id), this.clock.now(), this.config.publicUrl);
  }

  async void(principal: Principal, sessionId: string, body: unknown) {
    const { session, form } = await this.load(principal, sessionId, 'edit');
    const { reason } = parseBody(voidSessionSchema, body ?? {});
    const now = this.clock.now();
    if (publicStatus(session, now) !== 'active') {
      throw conflict(`The signing session is ${publicStatus(session, now)}, not active`, { reason: 'session_not_active' });
    }
    const at = now.toISOString();
    const actor = await this.actor(principal);
    await this.storage.transaction(async (tx) => {
      if (!(await tx.signing.transitionSession(session.id, ['active'], 'voided', { voided_at: at, void_reason: reason, updated_at: at }))) {
        // Gone with its form meanwhile: the 404 a moment later would give; else it ended (signed, voided).
        if (!(await tx.signing.findSession(session.id))) throw notFound('Signing session');
        throw conflict('The signing session is no longer active', { reason: 'session_not_active' });
      }
      await this.kit.audit(tx, session.id, { action: 'session_voided', ...actor, details: { reason } });
      for (const slot of await tx.signing.listSlots(session.id)) {
        if (slot.status === 'signed' && slot.email) await this.kit.mail(tx, voidNoticeMail(slot, form.title, reason), { sessionId: session.id, kind: 'void_notice', slot_number: slot.slot_number });
      }
      await this.kit.sealJob(tx, session, 'void');
    });
    this.events.emit('outbox.enqueued', { kind: 'signing_seal' });
    return { id: session.id, status: 'voided' as const, voided_at: at, void_reason: reason };
  }

  async resend(principal: Principal, sessionId: string, slotNumber: string) {
    const { session, form } = await this.load(principal, sessionId, 'edit');
    const slot = (await this.storage.signing.listSlots(session.id)).find((s) => String(s.slot_number) === slotNumber);
    if (!slot) throw notFound('Signer slot');
    if (!slot.email) throw badRequest(`Slot ${slot.slot_number} has no email address`, { reason: 'signer_has_no_email' });
    const status = publicStatus(session, this.clock.now());
    if (status !== 'active') throw conflict(`The signing session is ${status}, not active`, { reason: 'session_not_active' });
    if (slot.status !== 'pending') throw conflict(`Slot ${slot.slot_number} has already ${slot.status}`, { reason: 'slot_not_pending' });
    const actor = await this.actor(principal);
    await this.storage.transaction(async (tx) => {
      await this.kit.audit(tx, session.id, { action: 'signing_request_resent', slot_number: slot.slot_number, ...actor });
      await this.kit.mail(tx, signingRequestMail(session, slot, form.title, this.config.publicUrl), { sessionId: session.id, kind: 'signing_request', slot_number: slot.slot_number });
    });
    this.events.emit('outbox.enqueued', { kind: 'mail' });
    return { success: true, sent_to: slot.email, slot_number: slot.slot_number };
  }

  async documents(principal: Principal, sessionId: string, baseUrl: string) {
    const { session } = await this.load(principal, sessionId, 'read');
    const docs = await this.storage.signing.listDocuments(session.id, session.status === 'voided' ? 'voided' : 'signed');
    return { documents: docs.map((d) => presentDocument(d, this.config.publicUrl, baseUrl)) };
  }

  async document(principal: Principal, sessionId: string, docId: string) {
    const { session } = await this.load(principal, sessionId, 'read');
    const doc = await this.storage.signing.findDocument(session.id, docId);
    if (!doc) throw notFound('Signed document');
    return doc;
  }

  async audit(principal: Principal, sessionId: string) {
    const { session } = await this.load(principal, sessionId, 'read');
    return { entries: (await this.storage.signing.listAudit(session.id)).map(presentAuditEntry) };
  }
}
