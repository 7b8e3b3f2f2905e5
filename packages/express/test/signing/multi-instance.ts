import test from '../helpers/bounded-test';
import type { SignedDocumentRenderer } from '@formloom/core';
import { eventually, lazyRenderer, memoryMailer, testRenderer } from '../helpers/signing';
import { startTwoInstances, type TwoInstances } from '../helpers/two-instances';

/*
 * Signing races on PostgreSQL with two app instances on one schema, each with its own outbox worker
 * (docs/signing.md, "Concurrency"). Each case repeats a few times, so a lost race shows as a failure.
 */

const typed = (value: string) => ({ signature: { type: 'typed', value } });

test.before(async () => {
  await testRenderer();
});

/** Each instance its own renderer; `seals` counts the seals both made. */
function countingRenderers() {
  const calls = { seals: 0 };
  const one = (): SignedDocumentRenderer => {
    const inner = lazyRenderer();
    return { ...inner, seal: async (d) => (calls.seals++, inner.seal(d)) };
  };
  return { calls, renderers: [one(), one()] as [SignedDocumentRenderer, SignedDocumentRenderer] };
}

/** A form of `contracts` contract questions sharing `slots` signer slots, owned by a new Pro user. */
async function contractForm(two: TwoInstances, contracts: number, slots: number) {
  const user = await two.user('pro');
  const signer_slots = Array.from({ length: slots }, (_, i) => ({ slot_number: i + 1, label: `Party ${i + 1}` }));
  const questions = Array.from({ length: contracts }, (_, i) => ({
    type: 'contract',
    title: `Contract ${i + 1}`,
    properties: { document: `# Contract ${i + 1}\n\nThe parties agree.`, signer_slots },
  }));
  const form = await two.api(0, 'POST', '/forms', { key: user.key, body: { title: 'Shared contract', questions } });
  if (form.status !== 201) throw new Error(form.text);
  return { user, form: form.body };
}

async function newSession(two: TwoInstances, key: string, formId: string, body: Record<string, unknown> = {}) {
  const res = await two.api(1, 'POST', `/forms/${formId}/signing-sessions`, { key, body });
  if (res.status !== 201) throw new Error(res.text);
  return { id: res.body.id as string, codes: res.body.signer_links.map((l: any) => l.short_code as string) as string[] };
}

const auditOf = async (two: TwoInstances, key: string, id: string) =>
  (await two.api(0, 'GET', `/signing-sessions/${id}/audit`, { key })).body.entries as any[];

test('[postgres, 2 instances] two signatures of one slot at once: exactly one 200, the other 409, one signed entry', async (t) => {
  const two = await startTwoInstances({ renderers: countingRenderers().renderers });
  t.teardown(() => two.close());
  const { user, form } = await contractForm(two, 1, 2);
  for (let round = 0; round < 6; round++) {
    const s = await newSession(two, user.key, form.id);
    const results = await Promise.all([0, 1].map((i) => two.api(i, 'POST', `/s/${s.codes[0]}/sign`, { body: typed(`Signer via ${i}`) })));
    t.deepEqual(results.map((r) => r.status).sort(), [200, 409], `round ${round}: ${results.map((r) => r.text).join(' | ')}`);
    const winner = results.findIndex((r) => r.status === 200);
    t.deepEqual(results[winner]!.body, { slot_number: 1, status: 'signed', session_status: 'active' });
    t.is(results[1 - winner]!.body.error.reason, 'slot_not_pending');
    const entries = await auditOf(two, user.key, s.id);
    t.is(entries.filter((e) => e.action === 'signed').length, 1);
    const [slot] = await two.raw(`SELECT status, signature FROM signing_slots WHERE session_id = $1 AND slot_number = 1`, [s.id]);
    t.is(slot.status, 'signed');
    t.true(String(slot.signature).includes(`Signer via ${winner}`), 'the stored signature is the winner\'s');
    const got = await two.api(1, 'GET', `/signing-sessions/${s.id}`, { key: user.key });
    t.like(got.body, { status: 'active', total_signed: 1 });
  }
});

test('[postgres, 2 instances] concurrent signatures of different slots: none lost, the session completes and seals once', async (t) => {
  const { calls, renderers } = countingRenderers();
  const mailer = memoryMailer();
  const two = await startTwoInstances({ renderers, mailers: [mailer, mailer] });
  t.teardown(() => two.close());
  two.startWorkers();
  const CONTRACTS = 2;
  const SLOTS = 4;
  const { user, form } = await contractForm(two, CONTRACTS, SLOTS);
  const ROUNDS = 6;
  const sessions: { id: string; codes: string[] }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sessions.push(await newSession(two, user.key, form.id, { notify_emails: ['ops@example.com'], notify_events: ['all_complete'] }));
  }
  // Every slot of every session at once, split across the instances, each session's slots in another order.
  const signings = sessions.flatMap((s, round) =>
    s.codes.map((code, i) => ({ round, code, i, k: (i * (round + 1)) % SLOTS })).sort((a, b) => a.k - b.k),
  );
  const results = await Promise.all(signings.map((c, n) => two.api(n, 'POST', `/s/${c.code}/sign`, { body: typed(`Party ${c.i + 1}`) })));
  t.deepEqual(results.map((r) => r.status), Array(results.length).fill(200), results.map((r) => r.text).join(' | '));
  for (let round = 0; round < ROUNDS; round++) {
    const mine = results.filter((_, n) => signings[n]!.round === round);
    t.true(mine.some((r) => r.body.session_status === 'fully_signed'), 'the last signature sees the session complete');
  }
  for (const s of sessions) {
    const docs = await eventually(async () => {
      const [row] = await two.raw(`SELECT status FROM signing_sessions WHERE id = $1`, [s.id]);
      if (row.status !== 'completed') return false;
      return (await two.api(1, 'GET', `/signing-sessions/${s.id}/documents`, { key: user.key })).body.documents as any[];
    });
    t.is(docs.length, CONTRACTS, 'one document per contract question');
    t.deepEqual(docs.map((d) => d.question_title).sort(), ['Contract 1', 'Contract 2']);
    const again = (await two.api(0, 'GET', `/signing-sessions/${s.id}/documents`, { key: user.key })).body.documents as any[];
    t.deepEqual(again.map((d) => [d.id, d.document_hash]), docs.map((d) => [d.id, d.document_hash]), 'document_hash stable');
    for (const d of docs) {
      const pdf = Buffer.from(await (await fetch(`${two.urls[0]}/api/v1/signing-sessions/${s.id}/documents/${d.id}`, { headers: { authorization: `Bearer ${user.key}` } })).arrayBuffer());
      const check = await two.api(1, 'POST', '/signing/verify', { body: { pdf_base64: pdf.toString('base64') } });
      t.like(check.body, { valid: true, known_document: true, audit_chain_intact: true, document_hash: d.document_hash }, JSON.stringify(check.body.problems));
    }
    const entries = await auditOf(two, user.key, s.id);
    const count = (action: string) => entries.filter((e) => e.action === action).length;
    t.is(count('signed'), SLOTS, 'no signature lost');
    t.deepEqual(entries.filter((e) => e.action === 'signed').map((e) => e.slot_number).sort(), [1, 2, 3, 4]);
    t.is(count('all_signed'), 1);
    t.is(count('document_sealed'), CONTRACTS);
    t.is(count('session_completed'), 1);
    t.deepEqual(entries.map((e) => e.prev_hash), [null, ...entries.slice(0, -1).map((e) => e.hash)], 'one unbroken chain');
    const got = await two.api(0, 'GET', `/signing-sessions/${s.id}`, { key: user.key });
    t.like(got.body, { status: 'fully_signed', total_signed: SLOTS });
  }
  t.is(calls.seals, CONTRACTS * sessions.length, 'each document sealed exactly once across both instances');
  const [jobs] = await two.raw(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'signing_seal'`);
  t.is(Number(jobs.n), sessions.length, 'one seal job per session');
  await eventually(async () => mailer.sent.filter((m) => m.to === 'ops@example.com').length >= sessions.length);
  t.is(mailer.sent.filter((m) => m.to === 'ops@example.com').length, sessions.length, 'one all_complete notice per session');
});

test('[postgres, 2 instances] expiry: both instances\' housekeeping at once record and notify each expired session exactly once', async (t) => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  const mailer = memoryMailer();
  const two = await startTwoInstances({ clock, mailers: [mailer, mailer], renderers: countingRenderers().renderers });
  t.teardown(() => two.close());
  const { user, form } = await contractForm(two, 1, 2);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await newSession(two, user.key, form.id, { expiry_days: 1, notify_emails: [`watch${i}@example.com`, 'all@example.com'], notify_events: ['expiry'] })).id);
  }
  clock.offsetMs = 2 * 86_400_000;
  const [a, b] = two.instances;
  await Promise.all([a.worker.housekeep(), b.worker.housekeep(), a.worker.housekeep(), b.worker.housekeep()]);
  await Promise.all([a.worker.housekeep(), b.worker.housekeep()]);
  two.startWorkers();
  await eventually(async () => mailer.sent.filter((m) => m.to === 'all@example.com').length >= ids.length);
  await eventually(async () => (await two.raw(`SELECT id FROM outbox WHERE kind = 'mail' AND status <> 'delivered'`)).length === 0);
  t.is(mailer.sent.filter((m) => m.to === 'all@example.com').length, ids.length, 'one notice per session');
  for (const [i, id] of ids.entries()) {
    t.is(mailer.sent.filter((m) => m.to === `watch${i}@example.com`).length, 1);
    const entries = await auditOf(two, user.key, id);
    t.is(entries.filter((e) => e.action === 'session_expired').length, 1);
    t.is((await two.api(i, 'GET', `/signing-sessions/${id}`, { key: user.key })).body.status, 'expired');
  }
});
