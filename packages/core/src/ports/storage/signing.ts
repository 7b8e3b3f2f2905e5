import type {
  SignedDocumentRecord,
  SigningAuditEntry,
  SigningSessionRecord,
  SigningSlotRecord,
  StoredSessionStatus,
} from '../../domain/signing';
import type { Page } from './page';

/** What the caller builds of an audit entry, given the chain's head (`null` for the first entry). */
export type AuditEntryBuilder = (head: { seq: number; hash: string } | null) => SigningAuditEntry;

/**
 * Signing sessions: the session, its signer slots, its sealed documents and its audit trail (one
 * aggregate: deleting a session deletes them all; deleting its form deletes its sessions).
 */
export interface SigningRepository {
  /** Inserts the session and its slots together; a taken id or short code: CONFLICT, nothing written. */
  insertSession(session: SigningSessionRecord, slots: SigningSlotRecord[]): Promise<void>;
  findSession(id: string): Promise<SigningSessionRecord | null>;
  /** The form's sessions, newest first; `statuses` filters when given. */
  listSessions(formId: string, statuses: StoredSessionStatus[] | null, offset: number, limit: number): Promise<Page<SigningSessionRecord>>;
  /**
   * Sets `patch` (and `status` = `to`) only when the session's status is one of `from`, as one conditional
   * update. Inside a transaction the session stays held until it ends: another transaction's change of
   * the session (a transition, a deletion) waits for it, then sees its outcome. A transition to the same
   * status (`active` -> `active`) is how a caller holds an active session for the rest of its transaction.
   * @returns whether it did: of concurrent callers with the same `from` (`to` not in it), exactly one gets `true`.
   */
  transitionSession(
    id: string,
    from: StoredSessionStatus[],
    to: StoredSessionStatus,
    patch?: Partial<Pick<SigningSessionRecord, 'voided_at' | 'void_reason' | 'completed_at' | 'updated_at'>>,
  ): Promise<boolean>;
  /** Sets `expiry_notified_at` when unset. @returns whether it did (exactly one concurrent caller). */
  markExpiryNotified(id: string, at: string): Promise<boolean>;
  /** Active sessions past `now` whose expiry was not notified yet, oldest first. */
  listExpiredUnnotified(now: string, limit: number): Promise<SigningSessionRecord[]>;
  /** Sessions in `completing` (a seal job that may need finishing). */
  listCompleting(limit: number): Promise<SigningSessionRecord[]>;
  /**
   * How many of the form's sessions are in `statuses`. Inside a transaction it holds every session of the
   * form until the transaction ends (it waits for one held by another transaction, and counts its status
   * after that one ended), so no session changes status between this count and the form's deletion.
   */
  countSessionsOfForm(formId: string, statuses: StoredSessionStatus[]): Promise<number>;
  /** Deletes the session with its slots, documents and audit trail. @returns whether it existed. */
  deleteSession(id: string): Promise<boolean>;

  listSlots(sessionId: string): Promise<SigningSlotRecord[]>;
  findSlotByCode(shortCode: string): Promise<SigningSlotRecord | null>;
  /**
   * Sets `patch` on the slot only when its status is one of `from` (pass `null` for any status).
   * @returns whether it did: two concurrent signatures of a pending slot, exactly one gets `true`.
   */
  updateSlot(
    sessionId: string,
    slotNumber: number,
    from: SigningSlotRecord['status'][] | null,
    patch: Partial<Omit<SigningSlotRecord, 'session_id' | 'slot_number' | 'short_code'>>,
  ): Promise<boolean>;

  /**
   * Adds one to the slot's `counter` only while it is below `max`, as one conditional update (the limit on
   * email-code tries and sends). @returns whether it did: however many callers run at once, the counter
   * never passes `max`, and exactly `max - start` of them get `true`.
   */
  countSlotAttempt(sessionId: string, slotNumber: number, counter: 'code_attempts' | 'code_sends', max: number): Promise<boolean>;

  /** Stores a document; a second one for the same session, question and kind: CONFLICT. */
  insertDocument(doc: SignedDocumentRecord): Promise<void>;
  /** The session's documents without their bytes (`pdf` is empty), by question order of insertion. */
  listDocuments(sessionId: string, kind?: SignedDocumentRecord['kind']): Promise<SignedDocumentRecord[]>;
  findDocument(sessionId: string, id: string): Promise<SignedDocumentRecord | null>;
  /** Finds a document by `document_hash` (verification of an uploaded PDF). */
  findDocumentByHash(hash: string): Promise<SignedDocumentRecord | null>;

  /**
   * Appends one audit entry: reads the chain's head, calls `build` with it and stores the result. Under
   * concurrent appends to one session every entry lands, each on the head before it (no fork, no gap).
   */
  appendAudit(sessionId: string, build: AuditEntryBuilder): Promise<SigningAuditEntry>;
  /** The trail in order (`seq` ascending). */
  listAudit(sessionId: string): Promise<SigningAuditEntry[]>;
}
