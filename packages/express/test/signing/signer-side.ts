import test from '../helpers/bounded-test';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { forEachDb } from '../helpers/app';
import { contractForm, eventually, lazyRenderer, memoryMailer, testRenderer } from '../helpers/signing';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/* Issue 23, the signer's side through the API: the signed-copy mail of a password-protected session, the
   recorded e-sign consent, and signing without the emailed code. */

const run = promisify(execFile);
const mailer = memoryMailer();
const typed = (value: string) => ({ signature: { type: 'typed', value } });

test.before(async () => {
  await testRenderer();
});

forEachDb(test, (t) => {
  t('a password-protected session mails the signing page, which asks the password and then serves the copy', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form } = await contractForm(app);
    const tag = `${app.kind}-${Date.now()}`;
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { password: 'pw-123456', copy_mode: 'always', signers: [{ slot_number: 1, email: `a-${tag}@example.com` }, { slot_number: 2, email: `b-${tag}@example.com` }] },
    })).body;
    const token = async (code: string) => (await app.api('POST', `/s/${code}/verify-password`, { body: { password: 'pw-123456' } })).body.access_token as string;
    for (const link of created.signer_links) {
      const signed = await app.api('POST', `/s/${link.short_code}/sign`, { headers: { 'x-access-token': await token(link.short_code) }, body: typed('Someone') });
      tt.is(signed.status, 200, signed.text);
    }
    const code = created.signer_links[0].short_code;
    const mail = await eventually(async () => mailer.sent.find((m) => m.to === `a-${tag}@example.com` && m.subject.startsWith('Signed:')));
    const links = [...(mail.text ?? '').matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
    tt.deepEqual(links, [`${app.url}/s/${code}`], 'the signing page, not an API link that needs a header');
    const page = await fetch(links[0]);
    tt.is(page.status, 200);
    tt.regex(page.headers.get('content-type') ?? '', /text\/html/);
    const context = (await app.api('GET', `/s/${code}`)).body;
    tt.is(context.documents.length, 1);
    tt.is((await fetch(`${app.url}/api/v1/s/${code}/signed-documents/${context.documents[0].id}`)).status, 401);
    const pdf = await fetch(`${app.url}/api/v1/s/${code}/signed-documents/${context.documents[0].id}`, { headers: { 'x-access-token': await token(code) } });
    tt.is(pdf.status, 200);
    tt.is(pdf.headers.get('content-type'), 'application/pdf');
  });

  t('signing without the emailed code is 400 email_code_required; a wrong one invalid_email_code', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { require_email_verification: true, signers: [{ slot_number: 1, email: `c-${app.kind}@example.com` }, { slot_number: 2 }] },
    })).body;
    const code = created.signer_links[0].short_code;
    const none = await app.api('POST', `/s/${code}/sign`, { body: typed('Cleo') });
    tt.is(none.status, 400);
    tt.like(none.body.error, { code: 'BAD_REQUEST', reason: 'email_code_required', field: 'email_code' });
    tt.is((await app.api('POST', `/s/${code}/send-code`, { body: {} })).status, 200);
    const wrong = await app.api('POST', `/s/${code}/sign`, { body: { ...typed('Cleo'), email_code: '000000x' } });
    tt.is(wrong.status, 400);
    tt.is(wrong.body.error.reason, 'invalid_email_code');
  });

  t('the e-sign consent is recorded in the signed entry of the audit trail; only true is accepted', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { signers: [{ slot_number: 1 }, { slot_number: 2 }] } })).body;
    const [a, b] = created.signer_links.map((l: { short_code: string }) => l.short_code);
    tt.is((await app.api('POST', `/s/${a}/sign`, { body: { ...typed('Dana'), esign_consent: false } })).status, 400);
    tt.is((await app.api('POST', `/s/${a}/sign`, { body: { ...typed('Dana'), esign_consent: true } })).status, 200);
    tt.is((await app.api('POST', `/s/${b}/decline`, { body: {} })).status, 200);
    const entries = (await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key })).body.entries;
    const signed = entries.find((e: { action: string }) => e.action === 'signed');
    tt.deepEqual(signed.details, { signature_type: 'typed', esign_consent: 'I agree to sign electronically and to receive the records electronically.' });
  });

  t('a contract with characters no shipped font prints is refused at save (400 naming them), on create and update', async (tt, app) => {
    const user = await app.user('pro');
    const question = (document: string) => ({ type: 'contract', title: 'Contract', properties: { document, signer_slots: [{ slot_number: 1, label: 'Signer' }] } });
    const ok = await app.api('POST', '/forms', { key: user.key, body: { title: 'Scripts', questions: [question('Łódź 北京 東京 서울 القاهرة ירושלים दिल्ली Αθήνα Москва')] } });
    tt.is(ok.status, 201, ok.text);
    const refused = await app.api('POST', '/forms', { key: user.key, body: { title: 'Glyphs', questions: [question('Signed by 𓀀 and \uf8d0')] } });
    tt.is(refused.status, 400);
    tt.like(refused.body.error, { code: 'BAD_REQUEST', reason: 'unsupported_characters', field: 'questions[0].properties.document', characters: ['𓀀', '\uf8d0'] });
    tt.regex(refused.body.error.message, /𓀀 \(U\+13000\), \uf8d0 \(U\+F8D0\)/);
    // The signer's own name and typed signature: refused the same way when signing.
    const session = (await app.api('POST', `/forms/${ok.body.id}/signing-sessions`, { key: user.key, body: {} })).body;
    const code = session.signer_links[0].short_code;
    const badName = await app.api('POST', `/s/${code}/sign`, { body: { ...typed('Ok Name'), last_name: 'Pharaoh 𓀀' } });
    tt.is(badName.status, 400);
    tt.like(badName.body.error, { reason: 'unsupported_characters', field: 'last_name', characters: ['𓀀'] });
    const badTyped = await app.api('POST', `/s/${code}/sign`, { body: typed('𓀀 𓀁') });
    tt.like(badTyped.body.error, { reason: 'unsupported_characters', field: 'signature', characters: ['𓀀', '𓀁'] });
    tt.is((await app.api('POST', `/s/${code}/sign`, { body: { ...typed('Łukasz Żółć 王'), first_name: 'Łukasz', last_name: 'Żółć' } })).status, 200);
    const patched = await app.api('PUT', `/forms/${ok.body.id}`, { key: user.key, body: { questions: [question('Now 𓀀')] } });
    tt.is(patched.status, 400);
    tt.is(patched.body.error.reason, 'unsupported_characters');
    tt.is((await app.api('GET', `/forms/${ok.body.id}`, { key: user.key })).body.questions[0].properties.document, 'Łódź 北京 東京 서울 القاهرة ירושלים दिल्ली Αθήνα Москва', 'nothing half-written');
  });

  t('each contract\'s signer_slots decide who reads and signs it: a slot not named neither reads it nor signs its PDF', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const user = await app.user('pro');
    const both = [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Landlord' }];
    const form = (await app.api('POST', '/forms', {
      key: user.key,
      body: {
        title: 'Two contracts',
        questions: [
          { type: 'contract', title: 'Lease', properties: { document: '# Lease\n\nBoth parties sign the lease.', signer_slots: both } },
          { type: 'contract', title: 'Landlord declaration', properties: { document: '# Declaration\n\nOnly the landlord declares this.', signer_slots: [{ slot_number: 2, label: 'Landlord' }] } },
        ],
      },
    })).body;
    const session = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { copy_mode: 'always', signers: [{ slot_number: 1, first_name: 'Tina', last_name: 'Tenant' }, { slot_number: 2, first_name: 'Lars', last_name: 'Landlord' }] } })).body;
    const [tenant, landlord] = session.signer_links.map((l: { short_code: string }) => l.short_code);
    const titles = async (code: string) => (await app.api('GET', `/s/${code}/document`)).body.contracts.map((c: { title: string }) => c.title);
    tt.deepEqual(await titles(tenant), ['Lease']);
    tt.deepEqual(await titles(landlord), ['Lease', 'Landlord declaration']);
    for (const code of [tenant, landlord]) tt.is((await app.api('POST', `/s/${code}/sign`, { body: typed('Someone') })).status, 200);
    const docs = await eventually(async () => {
      const list = (await app.api('GET', `/signing-sessions/${session.id}/documents`, { key: user.key })).body.documents;
      return list.length === 2 && list;
    });
    const text = async (docId: string) => {
      const pdf = Buffer.from(await (await fetch(`${app.url}/api/v1/signing-sessions/${session.id}/documents/${docId}`, { headers: { authorization: `Bearer ${user.key}` } })).arrayBuffer());
      const dir = mkdtempSync(join(tmpdir(), 'formloom-slots-'));
      tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
      writeFileSync(join(dir, 'doc.pdf'), pdf);
      return (await run('pdftotext', ['-enc', 'UTF-8', join(dir, 'doc.pdf'), '-'])).stdout;
    };
    const lease = docs.find((d: { question_title: string }) => d.question_title === 'Lease');
    const declaration = docs.find((d: { question_title: string }) => d.question_title === 'Landlord declaration');
    const leaseText = await text(lease.id);
    tt.true(leaseText.includes('Tenant (slot 1)') && leaseText.includes('Landlord (slot 2)'));
    const declarationText = await text(declaration.id);
    tt.true(declarationText.includes('Landlord (slot 2)'));
    tt.false(declarationText.includes('Tenant (slot 1)'), 'the tenant has no signature on the declaration');
    tt.false(declarationText.includes('Tina Tenant'), 'nor a line on its certificate page');
    // The copies follow: the tenant gets the lease only.
    const context = (await app.api('GET', `/s/${tenant}`)).body;
    tt.deepEqual(context.documents.map((d: { question_title: string }) => d.question_title), ['Lease']);
    tt.is((await fetch(`${app.url}/api/v1/s/${tenant}/signed-documents/${declaration.id}`)).status, 404);
    tt.is((await fetch(`${app.url}/api/v1/s/${landlord}/signed-documents/${declaration.id}`)).status, 200);
  });
}, { mailer, signedDocuments: lazyRenderer(), config: CHEAP_PASSWORDS });
