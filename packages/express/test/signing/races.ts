import test from '../helpers/bounded-test';
import { eventually, lazyRenderer, memoryMailer, testRenderer } from '../helpers/signing';
import { startTwoInstances, type TwoInstances } from '../helpers/two-instances';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * The signer's limits and the session's end states under concurrent requests to two app instances on one
 * PostgreSQL schema (docs/signing.md, "Concurrency"): a limit holds however many requests run at once,
 * and a session ends one way only.
 */

const typed = (value: string) => ({ signature: { type: 'typed', value } });

test.before(async () => {
  await testRenderer();
});

async function setup(t: import('ava').ExecutionContext) {
  const mailer = memoryMailer();
  const two = await startTwoInstances({ mailers: [mailer, mailer], renderers: [lazyRenderer(), lazyRenderer()], config: CHEAP_PASSWORDS });
  t.teardown(() => two.close());
  return { two, mailer };
}

async function contractForm(two: TwoInstances, key: string) {
  const form = await two.api(0, 'POST', '/forms', {
    key,
    body: {
      title: 'Race',
      questions: [{ type: 'contract', title: 'Deal', properties: { document: 'Terms.', signer_slots: [{ slot_number: 1, label: 'A' }, { slot_number: 2, label: 'B' }] } }],
    },
  });
  if (form.status !== 201) throw new Error(form.text);
  return form.body.id as string;
}

async function newSession(two: TwoInstances, key: string, formId: string, body: Record<string, unknown> = {}) {
  const res = await two.api(1, 'POST', `/forms/${formId}/signing-sessions`, { key, body });
  if (res.status !== 201) throw new Error(res.text);
  return { id: res.body.id as string, codes: res.body.signer_links.map((l: any) => l.short_code as string) as string[] };
}

const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort((a, b) => a - b);

test('[postgres, 2 instances] wrong email codes at once spend the 5 attempts, no more; sends are limited too', async (t) => {
  const { two, mailer } = await setup(t);
  const user = await two.user('pro');
  const formId = await contractForm(two, user.key);
  const s = await newSession(two, user.key, formId, { require_email_verification: true, signers: [{ slot_number: 1, email: 'signer@example.com' }] });
  const code = s.codes[0]!;
  two.startWorkers();
  t.is((await two.api(0, 'POST', `/s/${code}/send-code`, { body: {} })).status, 200);
  const sent = await eventually(async () => mailer.sent.find((m) => m.to === 'signer@example.com'));
  const right = /(\d{6})/.exec(sent.subject)![1]!;
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');

  const guesses = await Promise.all(
    Array.from({ length: 16 }, (_, i) => two.api(i, 'POST', `/s/${code}/sign`, { body: { ...typed('X'), email_code: wrong } })),
  );
  const refused = guesses.filter((r) => r.status === 400);
  t.is(refused.length, 5, `five attempts in all: ${statuses(guesses).join(',')}`);
  t.true(refused.every((r) => r.body.error.reason === 'invalid_email_code'));
  t.is(guesses.filter((r) => r.status === 429).length, 11);
  t.is((await two.api(1, 'POST', `/s/${code}/sign`, { body: { ...typed('X'), email_code: right } })).status, 429, 'the right code after five wrong ones is refused');
  const [slot] = await two.raw(`SELECT code_attempts, status FROM signing_slots WHERE short_code = $1`, [code]);
  t.deepEqual({ ...slot, code_attempts: Number(slot.code_attempts) }, { code_attempts: 5, status: 'pending' });

  // Sends: one was made; of many at once, four more go out.
  const sends = await Promise.all(Array.from({ length: 12 }, (_, i) => two.api(i, 'POST', `/s/${code}/send-code`, { body: {} })));
  t.is(sends.filter((r) => r.status === 200).length, 4, statuses(sends).join(','));
  t.is(sends.filter((r) => r.status === 429).length, 8);
  const [outbox] = await two.raw(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'mail'`);
  t.is(Number(outbox.n), 5, 'five code mails queued in all');
});

test('[postgres, 2 instances] wrong passwords at once: 10 failures per link, then 429', async (t) => {
  const { two } = await setup(t);
  const user = await two.user('pro');
  const formId = await contractForm(two, user.key);
  const s = await newSession(two, user.key, formId, { password: 'open sesame' });
  const tries = await Promise.all(
    Array.from({ length: 24 }, (_, i) => two.api(i, 'POST', `/s/${s.codes[0]}/verify-password`, { body: { password: `guess ${i}` } })),
  );
  t.is(tries.filter((r) => r.status === 401).length, 10, statuses(tries).join(','));
  t.is(tries.filter((r) => r.status === 429).length, 14);
  const limited = await two.api(0, 'POST', `/s/${s.codes[0]}/verify-password`, { body: { password: 'open sesame' } });
  t.is(limited.status, 429, 'the right password too, once the link is locked');
  t.true(Number(limited.headers.get('retry-after')) > 0);
  const other = await two.api(1, 'POST', `/s/${s.codes[1]}/verify-password`, { body: { password: 'open sesame' } });
  t.is(other.status, 200, 'the limit is per link');
});

test('[postgres, 2 instances] void and signatures at once: the session ends one way, and every party who signed hears of a void', async (t) => {
  const { two, mailer } = await setup(t);
  const user = await two.user('pro');
  const formId = await contractForm(two, user.key);
  const rounds = await Promise.all(
    Array.from({ length: 8 }, (_, r) =>
      newSession(two, user.key, formId, { signers: [{ slot_number: 1, email: `a${r}@example.com` }, { slot_number: 2, email: `b${r}@example.com` }] }),
    ),
  );
  const outcomes = await Promise.all(
    rounds.map(async (s, r) => {
      const [a, b, v] = await Promise.all([
        two.api(r, 'POST', `/s/${s.codes[0]}/sign`, { body: typed('A') }),
        two.api(r + 1, 'POST', `/s/${s.codes[1]}/sign`, { body: typed('B') }),
        two.api(r, 'POST', `/signing-sessions/${s.id}/void`, { key: user.key, body: { reason: 'called off' } }),
      ]);
      return { s, r, a, b, v };
    }),
  );
  two.startWorkers();
  for (const { s, r, a, b, v } of outcomes) {
    const slots = await two.raw(`SELECT slot_number, status FROM signing_slots WHERE session_id = $1 ORDER BY slot_number`, [s.id]);
    const signed = slots.filter((x: any) => x.status === 'signed').map((x: any) => x.slot_number as number);
    t.deepEqual([a, b].flatMap((x, i) => (x.status === 200 ? [i + 1] : [])), signed, 'a 200 is a stored signature, a 409 is none');
    const [row] = await two.raw(`SELECT status FROM signing_sessions WHERE id = $1`, [s.id]);
    const entries = (await two.api(0, 'GET', `/signing-sessions/${s.id}/audit`, { key: user.key })).body.entries as any[];
    if (v.status === 200) {
      t.is(row.status, 'voided');
      t.true(signed.length < 2, 'a voided session was not also fully signed');
      const voidAt = entries.findIndex((e) => e.action === 'session_voided');
      t.false(entries.slice(voidAt).some((e) => e.action === 'signed'), 'no signature after the void');
      for (const n of signed) {
        const to = `${n === 1 ? 'a' : 'b'}${r}@example.com`;
        await eventually(async () => mailer.sent.some((m) => m.to === to && m.subject.startsWith('Signing voided')));
      }
    } else {
      t.is(v.status, 409);
      t.is(v.body.error.reason, 'session_not_active');
      t.deepEqual(signed, [1, 2]);
      t.true(['completing', 'completed'].includes(row.status));
    }
  }
});

test('[postgres, 2 instances] deleting a form while its last signature lands: never both a completed contract and a 200 without the flag', async (t) => {
  const { two } = await setup(t);
  const user = await two.user('pro');
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, async (_, r) => {
      const formId = await contractForm(two, user.key);
      const s = await newSession(two, user.key, formId);
      await two.api(r, 'POST', `/s/${s.codes[0]}/sign`, { body: typed('A') });
      const [sign, del] = await Promise.all([
        two.api(r, 'POST', `/s/${s.codes[1]}/sign`, { body: typed('B') }),
        two.api(r + 1, 'DELETE', `/forms/${formId}`, { key: user.key }),
      ]);
      return { formId, sign, del };
    }),
  );
  for (const { formId, sign, del } of outcomes) {
    const exists = (await two.raw(`SELECT id FROM forms WHERE id = $1`, [formId])).length === 1;
    if (del.status === 200) {
      t.false(exists);
      t.true([404, 409].includes(sign.status), `the signature after the deletion: ${sign.status} ${sign.text}`);
    } else {
      t.is(del.status, 409, del.text);
      t.like(del.body.error, { reason: 'form_has_signed_contracts', signed_contracts: 1 });
      t.true(exists);
      t.is(sign.body.session_status, 'fully_signed');
    }
  }
});
