import test from '../helpers/bounded-test';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { forEachDb, type TestApp } from '../helpers/app';
import { contractForm, eventually, lazyRenderer, memoryMailer, ph, testRenderer } from '../helpers/signing';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';
import { sameBytes } from '@formloom/core/testing';

const mailer = memoryMailer();
const typed = (value: string) => ({ signature: { type: 'typed', value } });

test.before(async () => {
  await testRenderer();
});

async function session(app: TestApp, body: Record<string, unknown> = {}) {
  app.formloom.worker.start({ pollMs: 50 });
  const { user, form } = await contractForm(app);
  const res = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body });
  if (res.status !== 201) throw new Error(res.text);
  const [a, b] = res.body.signer_links.map((l: any) => l.short_code as string);
  return { user, form, id: res.body.id as string, a, b };
}

const pdfsig = async (pdf: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-sig-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    return (await promisify(execFile)('pdfsig', [join(dir, 'doc.pdf')])).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

forEachDb(test, (t) => {
  t('a sequential, password-protected session: turn order, views, signatures, then one sealed PDF that pdfsig accepts', async (tt, app) => {
    const { user, id, a, b } = await session(app, { signing_order: 'sequential', password: 'correct horse', notify_emails: [`ops-${app.kind}@example.com`], notify_events: ['all_complete'], copy_mode: 'always', signers: [{ slot_number: 1, email: `tenant-${app.kind}@example.com` }] });
    const ctx = await app.api('GET', `/s/${a}`);
    tt.deepEqual(ctx.body, { form_id: ctx.body.form_id, session_id: id, slot_number: 1, slot_label: 'Tenant', status: 'active', requires_password: true, requires_email_verification: false, signing_order: 'sequential', is_turn: true, slot_status: 'pending', copy_mode: 'always', documents: [], still_to_sign: [{ slot_number: 1, slot_label: 'Tenant' }, { slot_number: 2, slot_label: 'Landlord' }] });
    tt.false((await app.api('GET', `/s/${b}`)).body.is_turn);
    tt.is((await app.api('GET', '/s/nope')).status, 404);
    tt.is((await app.api('GET', `/s/${a}/document`)).status, 401);
    const wrong = await app.api('POST', `/s/${a}/verify-password`, { body: { password: 'nope' } });
    tt.is(wrong.status, 401);
    tt.is(typeof wrong.body.error, 'string');
    const tokenA = (await app.api('POST', `/s/${a}/verify-password`, { body: { password: 'correct horse' } })).body.access_token;
    const tokenB = (await app.api('POST', `/s/${b}/verify-password`, { body: { password: 'correct horse' } })).body.access_token;
    tt.is((await app.api('GET', `/s/${b}/document`, { headers: { 'x-access-token': tokenA } })).status, 401, 'a token is for its own link');
    const doc = await app.api('GET', `/s/${a}/document`, { headers: { 'x-access-token': tokenA, 'user-agent': 'TestBrowser/1.0' } });
    tt.is(doc.status, 200);
    tt.is(doc.body.contracts[0].document, '# Lease\n\nThe **tenant** pays the rent.');
    const early = await app.api('POST', `/s/${b}/sign`, { headers: { 'x-access-token': tokenB }, body: typed('Lena Landlord') });
    tt.is(early.status, 409);
    tt.is(early.body.error.reason, 'not_your_turn');
    tt.is((await app.api('POST', `/s/${a}/sign`, { headers: { 'x-access-token': tokenA }, body: { signature: { type: 'typed', value: '' } } })).status, 400);
    const first = await app.api('POST', `/s/${a}/sign`, { headers: { 'x-access-token': tokenA }, body: { ...typed('Tom Tenant'), first_name: 'Tom', last_name: 'Tenant' } });
    tt.deepEqual(first.body, { slot_number: 1, status: 'signed', session_status: 'active' });
    tt.is((await app.api('POST', `/s/${a}/sign`, { headers: { 'x-access-token': tokenA }, body: typed('Again') })).status, 409);
    const last = await app.api('POST', `/s/${b}/sign`, { headers: { 'x-access-token': tokenB }, body: typed('Lena Landlord') });
    tt.deepEqual(last.body, { slot_number: 2, status: 'signed', session_status: 'fully_signed' });

    const docs = await eventually(async () => {
      const r = await app.api('GET', `/signing-sessions/${id}/documents`, { key: user.key });
      return r.body.documents.length === 1 && r.body.documents;
    });
    tt.deepEqual(Object.keys(docs[0]).sort(), ['document_hash', 'document_url', 'generated_at', 'id', 'question_id', 'question_title']);
    const pdf = await fetch(`${app.url}/api/v1/signing-sessions/${id}/documents/${docs[0].id}`, { headers: { authorization: `Bearer ${user.key}` } });
    tt.is(pdf.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    tt.is(docs[0].document_hash, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    const report = await pdfsig(bytes);
    tt.regex(report, /Signature Validation: Signature is Valid\./);
    tt.regex(report, /Total document signed/);
    tt.like((await app.api('GET', `/signing-sessions/${id}`, { key: user.key })).body, { status: 'fully_signed', total_signed: 2 });
    // Once sealed, the signer's context lists the copy to download (the download itself needs the token).
    const sealed = await eventually(async () => {
      const c = await app.api('GET', `/s/${a}`);
      return c.body.documents.length === 1 && c.body;
    });
    tt.like(sealed, { status: 'fully_signed', slot_status: 'signed', documents: [{ id: docs[0].id, question_id: docs[0].question_id, question_title: 'Lease agreement' }] });
    tt.is((await app.api('GET', `/s/${a}/signed-documents/${docs[0].id}`)).status, 401);
    const copy = await fetch(`${app.url}/api/v1/s/${a}/signed-documents/${docs[0].id}`, { headers: { 'x-access-token': tokenA } });
    sameBytes(tt, new Uint8Array(await copy.arrayBuffer()), bytes);

    const audit = (await app.api('GET', `/signing-sessions/${id}/audit`, { key: user.key })).body.entries;
    const viewed = audit.find((e: any) => e.action === 'document_viewed');
    tt.like(viewed, { slot_number: 1, user_agent: 'TestBrowser/1.0' });
    tt.like(audit.find((e: any) => e.action === 'signed'), { slot_number: 1, actor_name: 'Tom Tenant' });
    for (let i = 1; i < audit.length; i++) tt.is(audit[i].prev_hash, audit[i - 1].hash);
    await eventually(async () => mailer.sent.some((m) => m.to === `ops-${app.kind}@example.com` && m.subject.startsWith('All parties signed')));
    // A password-protected session: the copy's mail links to the signing page (a mail link cannot send the token).
    await eventually(async () => mailer.sent.some((m) => m.to === `tenant-${app.kind}@example.com` && m.subject.startsWith('Signed:') && m.text.includes(`${app.url}/s/${a} `)));
  });

  t('two concurrent last signatures: both land, the session seals once', async (tt, app) => {
    const { user, id, a, b } = await session(app);
    const results = await Promise.all([app.api('POST', `/s/${a}/sign`, { body: typed('A') }), app.api('POST', `/s/${b}/sign`, { body: typed('B') })]);
    tt.deepEqual(results.map((r) => r.status), [200, 200]);
    await eventually(async () => (await app.api('GET', `/signing-sessions/${id}/documents`, { key: user.key })).body.documents.length === 1);
    await eventually(async () => (await app.raw(`SELECT status FROM signing_sessions WHERE id = ${ph(app, 1)}`, [id]))[0].status === 'completed');
    tt.is((await app.raw(`SELECT id FROM signed_documents WHERE session_id = ${ph(app, 1)}`, [id])).length, 1);
    const jobs = await app.raw(`SELECT id FROM outbox WHERE kind = 'signing_seal' AND payload LIKE ${ph(app, 1)}`, [`%${id}%`]);
    tt.is(jobs.length, 1);
  });

  t('email verification: a 6-digit code by mail, a wrong code refused, the right one signs', async (tt, app) => {
    const { a } = await session(app, { require_email_verification: true, signers: [{ slot_number: 1, email: `verify-${app.kind}@example.com` }] });
    tt.true((await app.api('GET', `/s/${a}`)).body.requires_email_verification);
    tt.is((await app.api('POST', `/s/${a}/sign`, { body: typed('V') })).status, 400);
    tt.is((await app.api('POST', `/s/${a}/send-code`, { body: {} })).status, 200);
    const mail = await eventually(async () => mailer.sent.find((m) => m.to === `verify-${app.kind}@example.com` && /code/.test(m.subject)));
    const code = /(\d{6})/.exec(mail.subject)![1];
    const wrong = code === '000000' ? '111111' : '000000';
    tt.is((await app.api('POST', `/s/${a}/sign`, { body: { ...typed('V'), email_code: wrong } })).status, 400);
    const ok = await app.api('POST', `/s/${a}/sign`, { body: { ...typed('V'), email_code: code } });
    tt.is(ok.status, 200);
  });

  t('the sixth code within a code\'s lifetime is 429 with Retry-After; once the last code expired, sends work again', async (tt, app) => {
    const { id, a } = await session(app, { require_email_verification: true, signers: [{ slot_number: 1, email: `limit-${app.kind}@example.com` }] });
    for (let i = 0; i < 5; i++) tt.is((await app.api('POST', `/s/${a}/send-code`, { body: {} })).status, 200, `send ${i + 1}`);
    const sixth = await app.api('POST', `/s/${a}/send-code`, { body: {} });
    tt.is(sixth.status, 429);
    tt.is(sixth.body.error.code, 'RATE_LIMITED');
    const retryAfter = Number(sixth.headers.get('retry-after'));
    tt.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600, `Retry-After ${sixth.headers.get('retry-after')}`);
    tt.is(sixth.body.error.retry_after, retryAfter);
    // The last code's lifetime over (as if Retry-After had passed): the count starts again.
    await app.raw(`UPDATE signing_slots SET code_expires_at = ${ph(app, 1)} WHERE session_id = ${ph(app, 2)} AND slot_number = 1`, ['2000-01-01T00:00:00.000Z', id]);
    tt.is((await app.api('POST', `/s/${a}/send-code`, { body: {} })).status, 200);
    tt.is((await app.api('POST', `/s/${a}/send-code`, { body: {} })).status, 200, 'a fresh count, not one more send');
  });

  t('decline: the session is declined and nobody can sign any more', async (tt, app) => {
    const { user, id, a, b } = await session(app);
    const res = await app.api('POST', `/s/${a}/decline`, { body: { reason: 'Rent too high' } });
    tt.deepEqual(res.body, { slot_number: 1, status: 'declined', session_status: 'declined' });
    const after = await app.api('POST', `/s/${b}/sign`, { body: typed('B') });
    tt.is(after.status, 409);
    tt.is(after.body.error.reason, 'session_not_active');
    tt.is((await app.api('GET', `/signing-sessions/${id}`, { key: user.key })).body.status, 'declined');
  });

  t('copy_mode disabled: the signers get no copy, neither listed in the context nor downloadable', async (tt, app) => {
    const { user, id, a, b } = await session(app, { copy_mode: 'disabled' });
    await app.api('POST', `/s/${a}/sign`, { body: typed('A') });
    await app.api('POST', `/s/${b}/sign`, { body: typed('B') });
    const docs = await eventually(async () => {
      const r = await app.api('GET', `/signing-sessions/${id}/documents`, { key: user.key });
      return r.body.documents.length === 1 && r.body.documents;
    });
    await eventually(async () => (await app.raw(`SELECT status FROM signing_sessions WHERE id = ${ph(app, 1)}`, [id]))[0].status === 'completed');
    tt.like((await app.api('GET', `/s/${a}`)).body, { status: 'fully_signed', copy_mode: 'disabled', documents: [] });
    const refused = await app.api('GET', `/s/${a}/signed-documents/${docs[0].id}`);
    tt.is(refused.status, 403);
    tt.is(refused.body.error.reason, 'copies_disabled');
  });

  t('void after one signature: a VOIDED copy is sealed, the signed party notified', async (tt, app) => {
    const { user, id, a } = await session(app, { signers: [{ slot_number: 1, email: `signed-${app.kind}@example.com` }] });
    await app.api('POST', `/s/${a}/sign`, { body: typed('Signed Party') });
    await app.api('POST', `/signing-sessions/${id}/void`, { key: user.key, body: { reason: 'Replaced' } });
    const docs = await eventually(async () => {
      const r = await app.api('GET', `/signing-sessions/${id}/documents`, { key: user.key });
      return r.body.documents.length === 1 && r.body.documents;
    });
    const check = await (await testRenderer()).verify(new Uint8Array(await (await fetch(`${app.url}/api/v1/signing-sessions/${id}/documents/${docs[0].id}`, { headers: { authorization: `Bearer ${user.key}` } })).arrayBuffer()));
    tt.true(check.valid);
    tt.is(check.session_id, id);
    await eventually(async () => mailer.sent.some((m) => m.to === `signed-${app.kind}@example.com` && m.subject.startsWith('Signing voided')));
  });
}, { mailer, signedDocuments: lazyRenderer(), config: CHEAP_PASSWORDS });
