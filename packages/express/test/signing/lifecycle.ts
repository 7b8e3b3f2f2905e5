import test from '../helpers/bounded-test';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { SigningSealHandler } from '@formloom/core';
import { contractForm, eventually, lazyRenderer, memoryMailer, testRenderer } from '../helpers/signing';

test.before(async () => {
  await testRenderer();
});

for (const kind of DB_KINDS) {
  test(`[${kind}] expiry: past expires_at the session reads expired at once, refuses signatures, and notifies exactly once`, async (t) => {
    let offset = 0;
    const mailer = memoryMailer();
    const app = await startTestApp(kind, { mailer, signedDocuments: lazyRenderer(), clock: { now: () => new Date(Date.now() + offset) } });
    t.teardown(() => app.close());
    const { user, form } = await contractForm(app);
    const created = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { expiry_days: 1, notify_emails: ['watch@example.com'], notify_events: ['expiry'] },
    });
    const id = created.body.id;
    offset = 2 * 86_400_000;
    t.is((await app.api('GET', `/signing-sessions/${id}`, { key: user.key })).body.status, 'expired');
    const listed = await app.api('GET', `/forms/${form.id}/signing-sessions?status=expired`, { key: user.key });
    t.deepEqual(listed.body.sessions.map((s: any) => s.id), [id]);
    t.is((await app.api('GET', `/forms/${form.id}/signing-sessions?status=active`, { key: user.key })).body.total, 0);
    const sign = await app.api('POST', `/s/${created.body.signer_links[0].short_code}/sign`, { body: { signature: { type: 'typed', value: 'Late' } } });
    t.is(sign.status, 409);
    t.is(sign.body.error.reason, 'session_not_active');
    t.is((await app.api('POST', `/signing-sessions/${id}/void`, { key: user.key, body: { reason: 'x' } })).status, 409);

    await Promise.all([app.formloom.worker.housekeep(), app.formloom.worker.housekeep()]);
    await app.formloom.worker.housekeep();
    app.formloom.worker.start({ pollMs: 50 });
    await eventually(async () => mailer.sent.some((m) => m.to === 'watch@example.com'));
    await app.formloom.worker.stop();
    t.is(mailer.sent.filter((m) => m.to === 'watch@example.com').length, 1);
    const audit = (await app.api('GET', `/signing-sessions/${id}/audit`, { key: user.key })).body.entries;
    t.is(audit.filter((e: any) => e.action === 'session_expired').length, 1);
  });

  test(`[${kind}] delete: 409 form_has_signed_contracts with the count, unless delete_signed_contracts=true`, async (t) => {
    const app = await startTestApp(kind, { mailer: memoryMailer(), signedDocuments: lazyRenderer() });
    t.teardown(() => app.close());
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form } = await contractForm(app, 'pro', { signer_slots: [{ slot_number: 1, label: 'Client' }] });
    const s = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} });
    await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} });
    const signed = await app.api('POST', `/s/${s.body.signer_links[0].short_code}/sign`, { body: { signature: { type: 'typed', value: 'C' } } });
    t.is(signed.body.session_status, 'fully_signed');
    const [doc] = await eventually(async () => {
      const docs = (await app.api('GET', `/signing-sessions/${s.body.id}/documents`, { key: user.key })).body.documents;
      return docs.length === 1 && docs;
    });

    // Verification, while the session exists: the exact bytes verify; one changed byte does not.
    const pdf = Buffer.from(await (await fetch(`${app.url}/api/v1/signing-sessions/${s.body.id}/documents/${doc.id}`, { headers: { authorization: `Bearer ${user.key}` } })).arrayBuffer());
    const okRaw = await fetch(`${app.url}/api/v1/signing/verify`, { method: 'POST', body: pdf, headers: { 'content-type': 'application/pdf' } });
    const verified = (await okRaw.json()) as any;
    t.is(okRaw.status, 200, JSON.stringify(verified));
    t.like(verified, { valid: true, sealed_by_this_instance: true, known_document: true, audit_chain_intact: true, session_id: s.body.id, document_id: doc.id, document_hash: doc.document_hash });
    const asJson = await app.api('POST', '/signing/verify', { body: { pdf_base64: pdf.toString('base64') } });
    t.true(asJson.body.valid);
    const tampered = Buffer.from(pdf);
    tampered[20] ^= 1; // inside the signed byte range (the range starts at byte 0)
    const bad = (await (await fetch(`${app.url}/api/v1/signing/verify`, { method: 'POST', body: tampered, headers: { 'content-type': 'application/pdf' } })).json()) as any;
    t.false(bad.valid);
    t.false(bad.known_document);
    t.is((await app.api('POST', '/signing/verify', { body: {} })).status, 400);
    // Bad input is a 400 naming pdf_base64 (docs/decisions.md "Errors"): not base64, or base64 of something not a PDF.
    for (const [pdf_base64, reason] of [['%%% not base64 %%%', 'invalid_base64'], ['QUJD=A', 'invalid_base64'], [Buffer.from('hello, not a pdf').toString('base64'), 'not_a_pdf']]) {
      const refused = await app.api('POST', '/signing/verify', { body: { pdf_base64 } });
      t.is(refused.status, 400, pdf_base64);
      t.like(refused.body.error, { code: 'BAD_REQUEST', status: 400, field: 'pdf_base64', reason });
    }
    const notPdf = await fetch(`${app.url}/api/v1/signing/verify`, { method: 'POST', body: 'hello', headers: { 'content-type': 'application/pdf' } });
    t.is(notPdf.status, 400);
    t.like(((await notPdf.json()) as any).error, { status: 400, reason: 'not_a_pdf' });
    const wrapped = pdf.toString('base64').replace(/.{76}/g, '$&\n'); // MIME-style line breaks are fine
    t.true((await app.api('POST', '/signing/verify', { body: { pdf_base64: wrapped } })).body.valid);

    const blocked = await app.api('DELETE', `/forms/${form.id}`, { key: user.key });
    t.is(blocked.status, 409);
    t.like(blocked.body.error, { code: 'CONFLICT', status: 409, reason: 'form_has_signed_contracts', signed_contracts: 1 });
    t.is((await app.api('GET', `/forms/${form.id}`, { key: user.key })).status, 200);
    t.is((await app.api('DELETE', `/forms/${form.id}?delete_signed_contracts=true`, { key: user.key })).status, 200);
    t.is((await app.api('GET', `/signing-sessions/${s.body.id}`, { key: user.key })).status, 404);
    t.deepEqual(await app.raw('SELECT id FROM signed_documents'), []);
    t.deepEqual(await app.raw('SELECT id FROM signing_audit_entries'), []);
    t.deepEqual(await app.raw('SELECT id FROM signing_sessions'), []);
  });
}

for (const kind of DB_KINDS) {
  test(`[${kind}] a seal job that fails half-way is finished by the next run, sealing only what is missing`, async (t) => {
    const inner = lazyRenderer();
    let seals = 0;
    let failNext = true;
    const flaky = {
      ...inner,
      seal: async (d: Parameters<typeof inner.seal>[0]) => {
        // The second document's seal dies once, as a crash between two documents would.
        if (++seals === 2 && failNext) {
          failNext = false;
          throw new Error('power cut');
        }
        return inner.seal(d);
      },
    };
    const app = await startTestApp(kind, { mailer: memoryMailer(), signedDocuments: flaky });
    t.teardown(() => app.close());
    const user = await app.user('pro');
    const contract = (title: string) => ({ type: 'contract', title, properties: { document: `${title} text`, signer_slots: [{ slot_number: 1, label: 'Client' }] } });
    const form = await app.api('POST', '/forms', { key: user.key, body: { title: 'Two', questions: [contract('NDA'), contract('Terms')] } });
    const s = await app.api('POST', `/forms/${form.body.id}/signing-sessions`, { key: user.key, body: {} });
    await app.api('POST', `/s/${s.body.signer_links[0].short_code}/sign`, { body: { signature: { type: 'typed', value: 'C' } } });
    const handler = app.formloom.service(SigningSealHandler);
    await t.throwsAsync(handler.seal(s.body.id, 'complete'), { message: 'power cut' });
    const first = (await app.api('GET', `/signing-sessions/${s.body.id}/documents`, { key: user.key })).body.documents;
    t.is(first.length, 1);
    t.is((await app.api('GET', `/signing-sessions/${s.body.id}`, { key: user.key })).body.status, 'fully_signed');
    await handler.seal(s.body.id, 'complete');
    await handler.seal(s.body.id, 'complete');
    const docs = (await app.api('GET', `/signing-sessions/${s.body.id}/documents`, { key: user.key })).body.documents;
    t.deepEqual(docs.map((d: any) => d.question_title).sort(), ['NDA', 'Terms']);
    t.is(docs.find((d: any) => d.id === first[0].id)?.document_hash, first[0].document_hash, 'the first document is not sealed again');
    t.is(seals, 3);
    t.is((await app.raw('SELECT status FROM signing_sessions'))[0].status, 'completed');
  });
}

for (const kind of DB_KINDS) {
  test(`[${kind}] delete: only fully signed sessions count (sealed or not yet); active, voided and declined ones go with the form`, async (t) => {
    const app = await startTestApp(kind, { mailer: memoryMailer(), signedDocuments: lazyRenderer() });
    t.teardown(() => app.close());
    const { user, form } = await contractForm(app, 'pro', { signer_slots: [{ slot_number: 1, label: 'Client' }] });
    const create = async () => (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} })).body;
    const sign = (s: any) => app.api('POST', `/s/${s.signer_links[0].short_code}/sign`, { body: { signature: { type: 'typed', value: 'C' } } });
    await create();
    await app.api('POST', `/signing-sessions/${(await create()).id}/void`, { key: user.key, body: { reason: 'no' } });
    await app.api('POST', `/s/${(await create()).signer_links[0].short_code}/decline`, { body: {} });
    t.is((await app.api('DELETE', `/forms/${form.id}?delete_signed_contracts=maybe`, { key: user.key })).status, 400);

    // Two fully signed sessions, not sealed yet (no worker runs): evidence all the same.
    for (const s of [await create(), await create()]) t.is((await sign(s)).body.session_status, 'fully_signed');
    for (const query of ['', '?delete_signed_contracts=false']) {
      const blocked = await app.api('DELETE', `/forms/${form.id}${query}`, { key: user.key });
      t.is(blocked.status, 409);
      t.like(blocked.body.error, { reason: 'form_has_signed_contracts', signed_contracts: 2 });
    }
    t.is((await app.raw('SELECT id FROM signing_sessions')).length, 5, 'nothing deleted');
    t.is((await app.api('DELETE', `/forms/${form.id}?delete_signed_contracts=true`, { key: user.key })).status, 200);
    t.deepEqual(await app.raw('SELECT session_id FROM signing_slots'), []);
    t.deepEqual(await app.raw('SELECT id FROM signing_audit_entries'), []);
    t.deepEqual(await app.raw('SELECT id FROM signing_sessions'), []);

    const other = await contractForm(app, 'pro', { signer_slots: [{ slot_number: 1, label: 'Client' }] });
    const open = (await app.api('POST', `/forms/${other.form.id}/signing-sessions`, { key: other.user.key, body: {} })).body;
    t.is((await app.api('DELETE', `/forms/${other.form.id}`, { key: other.user.key })).status, 200, 'no signed contract: no flag needed');
    t.is((await app.api('GET', `/s/${open.signer_links[0].short_code}`)).status, 404, 'its links are gone');
  });
}
