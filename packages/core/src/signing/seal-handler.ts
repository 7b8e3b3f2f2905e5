import { inject, injectable } from 'tsyringe';
import type { SecretBox } from '../crypto-box';
import type { SigningSessionRecord, SigningSlotRecord } from '../domain/signing';
import type { OutboxItem } from '../domain/types';
import type { FormloomEvents } from '../events';
import type { Logger } from '../logger';
import { apiBase, type FormloomConfig } from '../config';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { SignedDocumentRenderer, SignedDocumentSigner } from '../ports/signed-documents';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { errorText, failedAttempt } from '../outbox/retry';
import { signingUrl } from './presenters';
import { notificationMail, signedCopyMail } from './signing-mails';
import { SEAL_JOB, SigningKit } from './signing-support';

/** What the signers were shown: kept in the `session_created` audit entry, so later form edits change nothing. */
export interface ContractSnapshot {
  question_id: string;
  title: string;
  document: string;
  /** The slots its `signer_slots` name: they alone read and sign it. Absent (older sessions) or empty: every slot. */
  slot_numbers?: number[];
}

/** Whether a slot reads and signs this contract (docs/signing.md: each contract's `signer_slots` decide). */
export const contractIncludesSlot = (c: ContractSnapshot, slotNumber: number) => !c.slot_numbers?.length || c.slot_numbers.includes(slotNumber);

export async function contractsOf(storage: Storage, sessionId: string): Promise<ContractSnapshot[]> {
  const created = (await storage.signing.listAudit(sessionId)).find((e) => e.action === 'session_created');
  return (created?.details.contracts as ContractSnapshot[] | undefined) ?? [];
}

function signerOf(session: SigningSessionRecord, s: SigningSlotRecord): SignedDocumentSigner {
  return {
    slot_number: s.slot_number,
    slot_label: s.slot_label,
    first_name: s.first_name,
    last_name: s.last_name,
    email: s.email,
    status: s.status,
    signature: s.signature,
    verification_methods: ['link', ...(session.password_hash ? (['password'] as const) : []), ...(s.email_verified_at ? (['email_code'] as const) : [])],
    viewed: s.viewed_at ? { at: s.viewed_at, ip_address: s.viewed_ip, user_agent: s.viewed_user_agent } : null,
    signed: s.signed_at ? { at: s.signed_at, ip_address: s.signed_ip, user_agent: s.signed_user_agent } : null,
    declined: s.declined_at ? { at: s.declined_at, reason: s.decline_reason } : null,
  };
}

/**
 * The seal job (docs/signing.md, "Completion"): renders and seals one PDF per contract question of a session
 * that moved to `completing` (then moves it to `completed`), or the `VOIDED` copies of a voided one. Each
 * document is stored once (a second insert is a conflict and skipped), so a retried or duplicated job,
 * or one that crashed half-way, finishes the work without sealing anything twice.
 */
@injectable()
export class SigningSealHandler implements OutboxHandler {
  readonly kind = SEAL_JOB;
  private readonly kit: SigningKit;
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.SecretBox) box: SecretBox,
    @inject(TOKENS.SignedDocuments) private readonly renderer: SignedDocumentRenderer,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    this.kit = new SigningKit(ids, clock, box);
  }

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    try {
      await this.seal(String(item.payload.session_id), item.payload.mode === 'void' ? 'void' : 'complete');
      return { status: 'delivered' };
    } catch (e) {
      // E.g. a timestamp authority that is down: the session stays `completing` (never `completed` unsealed)
      // and the outbox tries again on its schedule.
      const outcome = failedAttempt(this.clock.now(), item.attempts, errorText(e));
      this.logger.error(`formloom signing: sealing session ${String(item.payload.session_id)} failed (${outcome.status === 'pending' ? 'will retry' : 'gave up'}): ${errorText(e)}`, {
        session_id: String(item.payload.session_id),
        error: errorText(e),
      });
      return outcome;
    }
  }

  /**
   * Housekeeping: a session past `expires_at` already reads `expired`; here it gets its audit entry and
   * its `expiry` notification, exactly once (the conditional `expiry_notified_at` picks one caller).
   */
  async sweep(now: Date): Promise<void> {
    let queued = false;
    for (const session of await this.storage.signing.listExpiredUnnotified(now.toISOString(), 100)) {
      const form = await this.storage.forms.findById(session.form_id);
      await this.storage.transaction(async (tx) => {
        if (!(await tx.signing.markExpiryNotified(session.id, now.toISOString()))) return;
        await this.kit.audit(tx, session.id, { action: 'session_expired' });
        await this.kit.notify(tx, session, 'expiry', (to) => notificationMail(to, 'expiry', form?.title ?? '', session.id, `The session expired on ${session.expires_at}.`));
        queued ||= session.notify_events.includes('expiry');
      });
    }
    if (queued) this.events.emit('outbox.enqueued', { kind: 'mail' });
  }

  async seal(sessionId: string, mode: 'complete' | 'void'): Promise<void> {
    const session = await this.storage.signing.findSession(sessionId);
    if (!session) return;
    if (mode === 'complete' && session.status !== 'completing') return;
    if (mode === 'void' && session.status !== 'voided') return;
    const kind = mode === 'void' ? 'voided' : 'signed';
    const slots = await this.storage.signing.listSlots(sessionId);
    const have = new Set((await this.storage.signing.listDocuments(sessionId, kind)).map((d) => d.question_id));
    for (const c of await contractsOf(this.storage, sessionId)) {
      if (have.has(c.question_id)) continue;
      // A voided copy records what was signed before the void: a contract nobody signed has nothing to record,
      // and no one could download it (docs/decisions.md, "Signing sessions").
      if (mode === 'void' && !slots.some((s) => s.status === 'signed' && contractIncludesSlot(c, s.slot_number))) continue;
      const audit = await this.storage.signing.listAudit(sessionId);
      const created = audit.find((e) => e.action === 'session_created');
      const input = {
        session: {
          created_at: session.created_at,
          expires_at: session.expires_at,
          created_by: created?.actor_email ?? (created?.details.created_by as string | undefined) ?? null,
          form_title: (created?.details.form_title as string | undefined) ?? null,
          form_version_id: (created?.details.form_version_id as string | null | undefined) ?? null,
          emails: audit.filter((e) => e.action === 'email_sent').map((e) => ({ at: e.timestamp, to: String(e.details.to ?? ''), kind: String(e.details.kind ?? '') })),
          voided_by: audit.find((e) => e.action === 'session_voided')?.actor_email ?? null,
        },
        session_id: sessionId,
        form_id: session.form_id,
        question_id: c.question_id,
        question_title: c.title,
        contract: c.document,
        signers: slots.filter((s) => contractIncludesSlot(c, s.slot_number)).map((s) => signerOf(session, s)),
        audit_head_hash: audit[audit.length - 1]?.hash ?? '',
        generated_at: this.clock.now().toISOString(),
      };
      const rendered =
        mode === 'void'
          ? await this.renderer.renderVoided({ ...input, voided_at: session.voided_at!, void_reason: session.void_reason ?? '' })
          : await this.renderer.renderSigned(input);
      const sealed = await this.renderer.seal(rendered);
      const doc = { id: this.ids.id('doc'), session_id: sessionId, question_id: c.question_id, question_title: c.title, kind, pdf: sealed.pdf, document_hash: sealed.document_hash, generated_at: rendered.generated_at } as const;
      await this.storage.transaction(async (tx) => {
        try {
          await tx.signing.insertDocument(doc);
        } catch (e) {
          if ((e as { code?: string }).code === 'CONFLICT') return; // a concurrent run stored it first
          throw e;
        }
        await this.kit.audit(tx, sessionId, { action: 'document_sealed', details: { question_id: c.question_id, document_id: doc.id, document_hash: doc.document_hash, kind } });
      });
    }
    if (mode === 'complete') await this.complete(session, slots);
  }

  private async complete(session: SigningSessionRecord, slots: SigningSlotRecord[]) {
    const at = this.clock.now().toISOString();
    let sent = false;
    await this.storage.transaction(async (tx) => {
      if (!(await tx.signing.transitionSession(session.id, ['completing'], 'completed', { completed_at: at, updated_at: at }))) return;
      await this.kit.audit(tx, session.id, { action: 'session_completed' });
      if (session.copy_mode === 'disabled') return;
      const all = await tx.signing.listDocuments(session.id, 'signed');
      const contracts = await contractsOf(tx, session.id);
      for (const slot of slots) {
        if (!slot.email || (session.copy_mode === 'ask' && !slot.send_copy)) continue;
        // Each signer gets the contracts their slot signed.
        const docs = all.filter((d) => contractIncludesSlot(contracts.find((c) => c.question_id === d.question_id) ?? { question_id: '', title: '', document: '' }, slot.slot_number));
        if (docs.length === 0) continue;
        // A mail link cannot send the access token a password-protected session asks for: those signers get
        // their signing page, which asks for the password and then offers the downloads.
        const links = session.password_hash
          ? [`${signingUrl(this.config.publicUrl, slot.short_code)} (enter the session password to download)`]
          : docs.map((d) => `${d.question_title}: ${apiBase(this.config)}/s/${slot.short_code}/signed-documents/${d.id}`);
        await this.kit.mail(tx, signedCopyMail(slot, docs[0]?.question_title ?? 'your contract', links), { sessionId: session.id, kind: 'signed_copy', slot_number: slot.slot_number });
        sent = true;
      }
    });
    if (sent) this.events.emit('outbox.enqueued', { kind: 'mail' });
  }
}
