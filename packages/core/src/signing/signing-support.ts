import type { SecretBox } from '../crypto-box';
import type { SigningAuditAction, SigningSessionRecord } from '../domain/signing';
import type { FormRecord, Question } from '../domain/types';
import { badRequest, forbidden } from '../errors';
import { planHolderOf } from '../forms/form-access';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { MailMessage } from '../ports/mailer';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { enqueueMail } from '../outbox/mail-handler';
import { newOutboxItem } from '../outbox/outbox-worker';
import { chainedEntry, type AuditFacts } from './audit-chain';

/** The outbox kind of the job that renders and seals a session's PDFs (completion or void). */
export const SEAL_JOB = 'signing_seal';

export interface SlotDefinition {
  slot_number: number;
  label: string;
}

/** The form's contract questions, in form order; a form without any cannot have signing sessions. */
export function contractQuestions(questions: Question[]): Question[] {
  return questions.filter((q) => q.type === 'contract').sort((a, b) => a.order - b.order);
}

/** Every slot of every contract question (by slot number; the first label wins); one "Signer" by default. */
export function slotsOf(contracts: Question[]): SlotDefinition[] {
  const slots = new Map<number, string>();
  for (const q of contracts) {
    for (const s of (q.properties.signer_slots as SlotDefinition[] | undefined) ?? []) if (!slots.has(s.slot_number)) slots.set(s.slot_number, s.label);
  }
  if (slots.size === 0) slots.set(1, 'Signer');
  return [...slots].sort(([a], [b]) => a - b).map(([slot_number, label]) => ({ slot_number, label }));
}

export async function requireContractsPlan(storage: Storage, plans: Plans, form: FormRecord) {
  if (!(await plans.featuresFor(await planHolderOf(storage, form))).contracts) {
    throw forbidden('E-signature contracts need the Pro plan or higher', { reason: 'contract_requires_pro', upgrade_required: true });
  }
}

export function requireContracts(questions: Question[]): Question[] {
  const contracts = contractQuestions(questions);
  if (contracts.length === 0) throw badRequest('The form has no contract question', { reason: 'no_contract_question' });
  return contracts;
}

/** The helpers every signing service shares: audit appends, mails and jobs inside a transaction. */
export class SigningKit {
  constructor(
    readonly ids: IdGenerator,
    readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  nowIso = () => this.clock.now().toISOString();

  audit(tx: Storage, sessionId: string, facts: Partial<Omit<AuditFacts, 'id' | 'session_id'>> & { action: SigningAuditAction }) {
    return tx.signing.appendAudit(
      sessionId,
      chainedEntry({
        id: this.ids.id('aud'),
        session_id: sessionId,
        timestamp: this.nowIso(),
        slot_number: null,
        actor_email: null,
        actor_name: null,
        ip_address: null,
        user_agent: null,
        details: {},
        ...facts,
      }),
    );
  }

  /**
   * Queues a mail; with `evidence`, the session's audit trail records it (`email_sent`: the address and what
   * kind of mail, never its text: a code mail carries the code), for the certificate page.
   */
  async mail(tx: Storage, message: MailMessage, evidence?: { sessionId: string; kind: string; slot_number?: number }) {
    await enqueueMail(tx, this.ids, this.clock, this.box, message);
    if (evidence) {
      await this.audit(tx, evidence.sessionId, { action: 'email_sent', slot_number: evidence.slot_number ?? null, details: { to: message.to, kind: evidence.kind } });
    }
  }

  /** Queues the seal job; completing and voiding each queue one, and the job is idempotent. */
  sealJob(tx: Storage, session: Pick<SigningSessionRecord, 'id'>, mode: 'complete' | 'void') {
    return tx.outbox.enqueue(newOutboxItem(this.ids, this.nowIso(), SEAL_JOB, { session_id: session.id, mode }));
  }

  /** Status notification mails of `event` to the session's `notify_emails`, when subscribed. */
  async notify(tx: Storage, session: SigningSessionRecord, event: string, message: (to: string) => MailMessage) {
    if (!session.notify_events.includes(event)) return;
    for (const to of session.notify_emails) await this.mail(tx, message(to), { sessionId: session.id, kind: `notification_${event}` });
  }
}
