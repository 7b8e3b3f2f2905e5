import type { SigningSessionRecord, SigningSlotRecord } from '../../domain/signing';
import { chainedEntry, checkAuditChain } from '../../signing/audit-chain';
import { at, makeForm, rejectsWithConflict, type StorageHarnessInstance, type StorageTest, truthy, uid } from './fixtures';

const makeSession = (formId: string, over: Partial<SigningSessionRecord> = {}): SigningSessionRecord => ({
  id: uid('ses'),
  form_id: formId,
  created_by: uid('usr'),
  status: 'active',
  signing_order: 'any',
  expires_at: at(3600),
  hide_other_signers: false,
  copy_mode: 'ask',
  password_hash: null,
  require_email_verification: false,
  notify_emails: ['ops@example.com'],
  notify_events: ['all_complete'],
  custom_email_body: null,
  created_at: at(0),
  updated_at: at(0),
  voided_at: null,
  void_reason: null,
  completed_at: null,
  expiry_notified_at: null,
  ...over,
});

const makeSlot = (sessionId: string, n: number, over: Partial<SigningSlotRecord> = {}): SigningSlotRecord => ({
  session_id: sessionId,
  slot_number: n,
  slot_label: `Signer ${n}`,
  short_code: uid('code'),
  first_name: null,
  last_name: null,
  email: null,
  status: 'pending',
  signature: null,
  send_copy: false,
  viewed_at: null,
  viewed_ip: null,
  viewed_user_agent: null,
  signed_at: null,
  signed_ip: null,
  signed_user_agent: null,
  declined_at: null,
  decline_reason: null,
  code_hash: null,
  code_expires_at: null,
  code_attempts: 0,
  code_sends: 0,
  email_verified_at: null,
  updated_at: at(0),
  ...over,
});

async function newSession(db: StorageHarnessInstance, slots = 2, over: Partial<SigningSessionRecord> = {}) {
  const form = makeForm();
  await db.storage.forms.insert(form);
  const session = makeSession(form.id, over);
  const slotRecords = Array.from({ length: slots }, (_, i) => makeSlot(session.id, i + 1));
  await db.storage.signing.insertSession(session, slotRecords);
  return { form, session, slots: slotRecords };
}

const audit = (sessionId: string, action: string, n: number) =>
  chainedEntry({ id: uid('aud'), session_id: sessionId, action, timestamp: at(n), slot_number: null, actor_email: null, actor_name: null, ip_address: null, user_agent: null, details: { n } });

/** signing: sessions, slots, documents and the audit chain; conditional state changes under concurrency. */
export function signingTests(test: StorageTest): void {
  test('signing: insertSession stores the session and its slots; a taken short code writes nothing', async (t, db) => {
    const { form, session, slots } = await newSession(db);
    t.deepEqual(await db.storage.signing.findSession(session.id), session);
    t.deepEqual(await db.storage.signing.listSlots(session.id), slots);
    t.deepEqual(await db.storage.signing.findSlotByCode(slots[1].short_code), slots[1]);
    t.is(await db.storage.signing.findSlotByCode('nope'), null);
    const rows = await db.probes.signingSlots({ short_code: slots[0].short_code });
    t.is(rows.length, 1);
    t.false(truthy(rows[0].send_copy));

    const clash = makeSession(form.id);
    await rejectsWithConflict(t, db.storage.signing.insertSession(clash, [makeSlot(clash.id, 1, { short_code: slots[0].short_code })]), 'short code');
    t.is(await db.storage.signing.findSession(clash.id), null);
    t.is((await db.probes.signingSessions({ id: clash.id })).length, 0);
  });

  test('signing: listSessions filters by status and pages newest first; countSessionsOfForm counts', async (t, db) => {
    const { form, session } = await newSession(db, 1);
    const later = makeSession(form.id, { created_at: at(10), status: 'completed' });
    await db.storage.signing.insertSession(later, []);
    const all = await db.storage.signing.listSessions(form.id, null, 0, 20);
    t.deepEqual(all.items.map((s) => s.id), [later.id, session.id]);
    t.is(all.total, 2);
    const done = await db.storage.signing.listSessions(form.id, ['completed', 'completing'], 0, 20);
    t.deepEqual(done.items.map((s) => s.id), [later.id]);
    t.is(done.total, 1);
    t.is((await db.storage.signing.listSessions(form.id, null, 1, 1)).items[0].id, session.id);
    t.is(await db.storage.signing.countSessionsOfForm(form.id, ['completed']), 1);
  });

  test('signing: exactly one of concurrent callers moves a session active -> completing', async (t, db) => {
    const { session } = await newSession(db);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => db.storage.signing.transitionSession(session.id, ['active'], 'completing', { updated_at: at(5) })),
    );
    t.is(results.filter(Boolean).length, 1);
    const [row] = await db.probes.signingSessions({ id: session.id });
    t.is(row.status, 'completing');
    t.false(await db.storage.signing.transitionSession(session.id, ['active'], 'voided'));
    t.true(await db.storage.signing.transitionSession(session.id, ['completing'], 'completed', { completed_at: at(6) }));
    t.is((await db.storage.signing.findSession(session.id))?.completed_at, at(6));
  });

  test('signing: a slot signs once: of two concurrent signatures exactly one wins', async (t, db) => {
    const { session } = await newSession(db);
    const sign = (name: string) =>
      db.storage.signing.updateSlot(session.id, 1, ['pending'], { status: 'signed', signature: { type: 'typed', value: name }, signed_at: at(1) });
    const results = await Promise.all([sign('Alice'), sign('Mallory')]);
    t.is(results.filter(Boolean).length, 1);
    const [slot] = await db.storage.signing.listSlots(session.id);
    t.is(slot.status, 'signed');
    t.is(slot.signature?.value, results[0] ? 'Alice' : 'Mallory');
    t.false(await db.storage.signing.updateSlot(session.id, 1, ['pending'], { status: 'declined' }));
    t.true(await db.storage.signing.updateSlot(session.id, 2, null, { code_attempts: 3 }));
    t.is((await db.storage.signing.listSlots(session.id))[1].code_attempts, 3);
  });

  test('signing: countSlotAttempt counts up to the limit however many callers run at once', async (t, db) => {
    const { session } = await newSession(db);
    t.true(await db.storage.signing.updateSlot(session.id, 1, null, { code_attempts: 1 }));
    const tries = await Promise.all(Array.from({ length: 12 }, () => db.storage.signing.countSlotAttempt(session.id, 1, 'code_attempts', 5)));
    t.is(tries.filter(Boolean).length, 4, 'from 1 up to 5');
    const sends = await Promise.all(Array.from({ length: 9 }, () => db.storage.signing.countSlotAttempt(session.id, 1, 'code_sends', 5)));
    t.is(sends.filter(Boolean).length, 5);
    const rows = await db.probes.signingSlots({ session_id: session.id });
    const [row, other] = [1, 2].map((n) => rows.find((r) => Number(r.slot_number) === n)!);
    t.deepEqual([Number(row.code_attempts), Number(row.code_sends)], [5, 5]);
    t.deepEqual([Number(other.code_attempts), Number(other.code_sends)], [0, 0], 'another slot is untouched');
    t.false(await db.storage.signing.countSlotAttempt(session.id, 9, 'code_sends', 5), 'no such slot');
  });

  test('signing: markExpiryNotified sets once; expired unnotified sessions are listed', async (t, db) => {
    const { session } = await newSession(db, 1, { expires_at: at(-10) });
    t.true((await db.storage.signing.listExpiredUnnotified(at(0), 1000)).some((s) => s.id === session.id));
    const results = await Promise.all([1, 2, 3].map(() => db.storage.signing.markExpiryNotified(session.id, at(1))));
    t.is(results.filter(Boolean).length, 1);
    t.false((await db.storage.signing.listExpiredUnnotified(at(0), 1000)).some((s) => s.id === session.id));
  });

  test('signing: documents keep their bytes exactly; one per question and kind', async (t, db) => {
    const { session } = await newSession(db, 1);
    const pdf = new Uint8Array([37, 80, 68, 70, 0, 255, 1, 2, 128]);
    const doc = { id: uid('doc'), session_id: session.id, question_id: 'q1', question_title: 'Lease', kind: 'signed' as const, pdf, document_hash: `sha256:${uid('h')}`, generated_at: at(2) };
    await db.storage.signing.insertDocument(doc);
    await rejectsWithConflict(t, db.storage.signing.insertDocument({ ...doc, id: uid('doc') }), 'same question and kind');
    t.deepEqual(await db.storage.signing.findDocument(session.id, doc.id), doc);
    t.deepEqual(await db.storage.signing.findDocumentByHash(doc.document_hash), doc);
    t.is(await db.storage.signing.findDocument('ses_other', doc.id), null);
    const [listed] = await db.storage.signing.listDocuments(session.id);
    t.is(listed.id, doc.id);
    t.is(listed.pdf.length, 0);
    t.deepEqual(await db.storage.signing.listDocuments(session.id, 'voided'), []);
  });

  test('signing: concurrent audit appends all land on one unbroken chain', async (t, db) => {
    const { session } = await newSession(db, 1);
    await Promise.all(Array.from({ length: 10 }, (_, i) => db.storage.signing.appendAudit(session.id, audit(session.id, 'viewed', i))));
    const entries = await db.storage.signing.listAudit(session.id);
    t.is(entries.length, 10);
    t.deepEqual(entries.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    t.deepEqual(checkAuditChain(entries), { ok: true, broken_at: null });
    t.is((await db.probes.signingAudit({ session_id: session.id })).length, 10);
  });

  test('signing: deleting a session or its form deletes slots, documents and audit', async (t, db) => {
    const { form, session, slots } = await newSession(db, 1);
    const other = await newSession(db, 1);
    await db.storage.signing.appendAudit(session.id, audit(session.id, 'session_created', 0));
    await db.storage.signing.appendAudit(other.session.id, audit(other.session.id, 'session_created', 0));
    t.true(await db.storage.signing.deleteSession(other.session.id));
    t.false(await db.storage.signing.deleteSession(other.session.id));
    t.is((await db.probes.signingAudit({ session_id: other.session.id })).length, 0);
    t.true(await db.storage.forms.delete(form.id));
    t.is((await db.probes.signingSessions({ form_id: form.id })).length, 0);
    t.is((await db.probes.signingSlots({ short_code: slots[0].short_code })).length, 0);
    t.is((await db.probes.signingAudit({ session_id: session.id })).length, 0);
  });
}
