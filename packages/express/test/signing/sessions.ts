import test from '../helpers/bounded-test';
import { forEachDb } from '../helpers/app';
import { contractForm, eventually, lazyRenderer, memoryMailer, ph, testRenderer } from '../helpers/signing';

const mailer = memoryMailer();
const SESSION_FIELDS = ['copy_mode', 'created_at', 'expires_at', 'form_id', 'hide_other_signers', 'id', 'signer_links', 'signing_order', 'status', 'total_signed', 'total_slots'];

test.before(async () => {
  await testRenderer();
});

forEachDb(test, (t) => {
  t('create: 201 with exactly the session fields, one link per slot with a 128-bit URL-safe code', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const res = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { signers: [{ slot_number: 1, first_name: 'Alice', email: 'alice@example.com' }], expiry_days: 7, password: 'hunter22' },
    });
    tt.is(res.status, 201, res.text);
    tt.deepEqual(Object.keys(res.body).sort(), SESSION_FIELDS);
    tt.is(res.body.status, 'active');
    tt.is(res.body.signing_order, 'any');
    tt.is(res.body.total_slots, 2);
    tt.is(res.body.total_signed, 0);
    tt.is(res.body.copy_mode, 'ask');
    tt.is(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at), 7 * 86_400_000);
    const [a, b] = res.body.signer_links;
    tt.like(a, { slot_number: 1, slot_label: 'Tenant', first_name: 'Alice', last_name: null, email: 'alice@example.com', status: 'pending' });
    tt.like(b, { slot_number: 2, slot_label: 'Landlord', email: null, status: 'pending' });
    for (const link of [a, b]) {
      tt.regex(link.short_code, /^[A-Za-z0-9_-]{22,}$/);
      tt.is(link.signing_url, `${app.url}/s/${link.short_code}`);
    }
    tt.not(a.short_code, b.short_code);
    const [row] = await app.raw(`SELECT password_hash FROM signing_sessions WHERE id = ${ph(app, 1)}`, [res.body.id]);
    tt.regex(row.password_hash, /^scrypt\$/);
    tt.false(JSON.stringify(row).includes('hunter22'));
  });

  t('create: 403 on a free owner\'s form, 400 on a form without a contract or an unknown slot, 404 on another\'s form', async (tt, app) => {
    const free = await contractForm(app, 'free');
    const denied = await app.api('POST', `/forms/${free.form.id}/signing-sessions`, { key: free.user.key, body: {} });
    tt.is(denied.status, 403);
    tt.is(denied.body.error.code, 'FORBIDDEN');

    const { user, form } = await contractForm(app);
    const bad = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { signers: [{ slot_number: 9 }] } });
    tt.is(bad.status, 400);
    tt.is(bad.body.error.status, 400);
    const badDays = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { expiry_days: 0 } });
    tt.is(badDays.status, 400);
    const plain = await app.api('POST', '/forms', { key: user.key, body: { title: 'No contract', questions: [{ type: 'short_text', title: 'A' }] } });
    tt.is((await app.api('POST', `/forms/${plain.body.id}/signing-sessions`, { key: user.key, body: {} })).status, 400);
    const other = await app.user('pro');
    tt.is((await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: other.key, body: {} })).status, 403);
    tt.is((await app.api('GET', `/forms/${form.id}/signing-sessions`, { key: other.key })).status, 403);
    tt.is((await app.api('GET', '/signing-sessions/ses_nope', { key: user.key })).status, 404);
  });

  t('list: status filter, per_page 20 by default, list items carry only the documented fields', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} })).body.id);
    await app.api('POST', `/signing-sessions/${ids[0]}/void`, { key: user.key, body: { reason: 'wrong tenant' } });
    const all = await app.api('GET', `/forms/${form.id}/signing-sessions`, { key: user.key });
    tt.is(all.status, 200);
    tt.like(all.body, { total: 3, page: 1, per_page: 20 });
    tt.deepEqual(Object.keys(all.body.sessions[0]).sort(), ['created_at', 'expires_at', 'id', 'signing_order', 'status', 'total_signed', 'total_slots']);
    const active = await app.api('GET', `/forms/${form.id}/signing-sessions?status=active`, { key: user.key });
    tt.deepEqual(active.body.sessions.map((s: any) => s.id).sort(), [ids[1], ids[2]].sort());
    const voided = await app.api('GET', `/forms/${form.id}/signing-sessions?status=voided&per_page=1`, { key: user.key });
    tt.like(voided.body, { total: 1, per_page: 1 });
    tt.is(voided.body.sessions[0].id, ids[0]);
    tt.is((await app.api('GET', `/forms/${form.id}/signing-sessions?status=bogus`, { key: user.key })).status, 400);
  });

  t('void: voided with reason and time, then 409; resend: 400 without email, the request mailed with the custom body', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form } = await contractForm(app);
    const created = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: {
        signers: [{ slot_number: 1, first_name: 'Bo', last_name: 'Ek', email: `bo-${app.kind}@example.com` }],
        custom_email_body: 'Hi {slot_firstName} {slot_lastName}, sign at {slot_link} by {expiryDate}.',
      },
    });
    const id = created.body.id;
    const link = created.body.signer_links[0];
    tt.is((await app.api('POST', `/signing-sessions/${id}/resend/2`, { key: user.key })).status, 400);
    tt.is((await app.api('POST', `/signing-sessions/${id}/resend/7`, { key: user.key })).status, 404);
    const resent = await app.api('POST', `/signing-sessions/${id}/resend/1`, { key: user.key });
    tt.deepEqual(resent.body, { success: true, sent_to: `bo-${app.kind}@example.com`, slot_number: 1 });
    const mail = await eventually(async () => mailer.sent.find((m) => m.to === `bo-${app.kind}@example.com` && m.text.includes(link.short_code)));
    tt.is(mail.text, `Hi Bo Ek, sign at ${link.signing_url} by ${created.body.expires_at.slice(0, 10)}.`);

    tt.is((await app.api('POST', `/signing-sessions/${id}/void`, { key: user.key, body: {} })).status, 400);
    const voided = await app.api('POST', `/signing-sessions/${id}/void`, { key: user.key, body: { reason: 'Wrong rent' } });
    tt.is(voided.status, 200);
    tt.deepEqual(Object.keys(voided.body).sort(), ['id', 'status', 'void_reason', 'voided_at']);
    tt.like(voided.body, { id, status: 'voided', void_reason: 'Wrong rent' });
    const again = await app.api('POST', `/signing-sessions/${id}/void`, { key: user.key, body: { reason: 'x' } });
    tt.is(again.status, 409);
    tt.is(again.body.error.code, 'CONFLICT');
    const got = await app.api('GET', `/signing-sessions/${id}`, { key: user.key });
    tt.like(got.body, { status: 'voided', voided_at: voided.body.voided_at, void_reason: 'Wrong rent' });
    tt.is((await app.api('POST', `/signing-sessions/${id}/resend/1`, { key: user.key })).status, 409);
  });

  t('audit: session_created first, each entry chained to the one before by its hash', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const { body } = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} });
    await app.api('POST', `/signing-sessions/${body.id}/void`, { key: user.key, body: { reason: 'test' } });
    const audit = await app.api('GET', `/signing-sessions/${body.id}/audit`, { key: user.key });
    tt.is(audit.status, 200);
    const actions = audit.body.entries.map((e: any) => e.action);
    tt.deepEqual(actions.slice(0, 2), ['session_created', 'session_voided']);
    tt.is(audit.body.entries[0].prev_hash, null);
    tt.is(audit.body.entries[1].prev_hash, audit.body.entries[0].hash);
    tt.regex(audit.body.entries[0].hash, /^[0-9a-f]{64}$/);
  });
}, { mailer, signedDocuments: lazyRenderer() });
