import test from '../helpers/bounded-test';
import { createHash } from 'node:crypto';
import { createSmtpMailer } from '@formloom/mailer-smtp';
import { type ReceivedSmtpMessage, smtpReply, startSmtpServer, type TestSmtpServer } from '@formloom/mailer-smtp/testing';
import type { SMTPServerOptions } from 'smtp-server';
import { DB_KINDS, type DbKind, startTestApp, type TestApp } from '../helpers/app';
import { contractForm, eventually, lazyRenderer, testRenderer } from '../helpers/signing';

/*
 * Every mail of a signing session, received by a real SMTP server (the `smtp-server` package on an
 * ephemeral port) through the SMTP mailer adapter and the durable outbox (docs/signing.md, "Emails").
 */

const typed = (value: string) => ({ signature: { type: 'typed', value } });
const text = (m: ReceivedSmtpMessage) => m.text.replace(/\r\n/g, '\n');

test.before(async () => {
  await testRenderer();
});

interface MailRig {
  app: TestApp;
  smtp: TestSmtpServer;
  clock: { offsetMs: number; now(): Date };
  /** The messages to `to`, once `count` of them arrived. */
  to(address: string, count?: number): Promise<ReceivedSmtpMessage[]>;
}

async function rig(t: import('ava').ExecutionContext, kind: DbKind, handlers: Partial<SMTPServerOptions> = {}, apiPath?: string): Promise<MailRig> {
  const smtp = await startSmtpServer(handlers);
  const mailer = createSmtpMailer({ url: smtp.url, from: 'Formloom <no-reply@formloom.test>' });
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  const app = await startTestApp(kind, { clock, mailer, signedDocuments: lazyRenderer(), apiPath });
  t.teardown(async () => {
    await app.close();
    await mailer.close();
    await smtp.close();
  });
  app.formloom.worker.start({ pollMs: 50 });
  const to = async (address: string, count = 1) =>
    eventually(async () => {
      const got = smtp.messages.filter((m) => m.envelope.to.includes(address));
      return got.length >= count && got;
    });
  return { app, smtp, clock, to };
}

/** Waits until the outbox holds no mail left to send, then the SMTP server has everything it will get. */
const settled = (app: TestApp) =>
  eventually(async () => (await app.raw(`SELECT id FROM outbox WHERE status <> 'delivered'`)).length === 0);

for (const kind of DB_KINDS) {
  test(`[${kind}] signing requests with custom_email_body, resend, notifications per event and the copies (copy_mode always)`, async (t) => {
    const { app, smtp, to } = await rig(t, kind);
    const { user, form } = await contractForm(app);
    const created = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: {
        send_signing_emails: true,
        custom_email_body: 'Dear {slot_firstName} {slot_lastName}, sign here: {slot_link} (until {expiryDate}). {unknown} stays.',
        signers: [
          { slot_number: 1, first_name: 'Tom', last_name: 'Tenant', email: 'tenant@example.com' },
          { slot_number: 2, first_name: 'Lena', last_name: 'Landlord', email: 'Landlord@Example.com' },
        ],
        notify_emails: ['ops@example.com', 'legal@example.com'],
        notify_events: ['each_signature', 'all_complete'],
        copy_mode: 'always',
      },
    });
    t.is(created.status, 201);
    const [tenantLink, landlordLink] = created.body.signer_links.map((l: any) => l.short_code as string);
    const expiry = created.body.expires_at.slice(0, 10);
    const [tenantMail] = await to('tenant@example.com');
    const [landlordMail] = await to('landlord@example.com');
    t.is(tenantMail!.subject, 'Please sign: Lease');
    t.is(tenantMail!.from, 'Formloom <no-reply@formloom.test>');
    t.is(text(tenantMail!).trim(), `Dear Tom Tenant, sign here: ${app.url}/s/${tenantLink} (until ${expiry}). {unknown} stays.`);
    t.is(text(landlordMail!).trim(), `Dear Lena Landlord, sign here: ${app.url}/s/${landlordLink} (until ${expiry}). {unknown} stays.`);
    t.is(created.body.signer_links[0].signing_url, `${app.url}/s/${tenantLink}`);

    const resent = await app.api('POST', `/signing-sessions/${created.body.id}/resend/2`, { key: user.key });
    t.deepEqual(resent.body, { success: true, sent_to: 'landlord@example.com', slot_number: 2 });
    const again = await to('landlord@example.com', 2);
    t.is(again[1]!.subject, 'Please sign: Lease');
    t.true(text(again[1]!).includes(`${app.url}/s/${landlordLink} `));

    t.is((await app.api('POST', `/s/${tenantLink}/sign`, { body: typed('Tom Tenant') })).status, 200);
    const [ops1] = await to('ops@example.com');
    t.is(ops1!.subject, 'A signature was added: Lease');
    t.true(text(ops1!).includes('Tenant (Tom Tenant) signed.'));
    t.true(text(ops1!).includes(created.body.id));
    t.is((await app.api('POST', `/s/${landlordLink}/sign`, { body: typed('Lena Landlord') })).status, 200);

    // The copies follow the seal: one mail to each signer with a link to each sealed document.
    const [tenantCopy] = (await to('tenant@example.com', 2)).slice(1);
    t.is(tenantCopy!.subject, 'Signed: Lease agreement');
    const docs = (await app.api('GET', `/signing-sessions/${created.body.id}/documents`, { key: user.key })).body.documents;
    t.is(docs.length, 1);
    const copyLink = `${app.url}/api/v1/s/${tenantLink}/signed-documents/${docs[0].id}`;
    t.true(text(tenantCopy!).includes(copyLink), text(tenantCopy!));
    const pdf = Buffer.from(await (await fetch(copyLink)).arrayBuffer());
    t.is(`sha256:${createHash('sha256').update(pdf).digest('hex')}`, docs[0].document_hash, 'the link serves the sealed bytes');
    const landlordAll = await to('landlord@example.com', 3);
    t.is(landlordAll[2]!.subject, 'Signed: Lease agreement');
    t.true(text(landlordAll[2]!).includes(`${app.url}/api/v1/s/${landlordLink}/signed-documents/${docs[0].id}`));

    await settled(app);
    const subjects = (address: string) => smtp.messages.filter((m) => m.envelope.to.includes(address)).map((m) => m.subject);
    for (const watcher of ['ops@example.com', 'legal@example.com']) {
      t.deepEqual(subjects(watcher).sort(), ['A signature was added: Lease', 'A signature was added: Lease', 'All parties signed: Lease'], watcher);
    }
    t.deepEqual(subjects('tenant@example.com'), ['Please sign: Lease', 'Signed: Lease agreement']);
    t.deepEqual(subjects('landlord@example.com'), ['Please sign: Lease', 'Please sign: Lease', 'Signed: Lease agreement']);
    t.true(smtp.messages.every((m) => m.envelope.to.length === 1), 'one recipient per mail: no address sees another');
  });

  test(`[${kind}] with the router mounted at /forms-api/v1, the copies link under that mount and download the sealed PDF`, async (t) => {
    const { app, to } = await rig(t, kind, {}, '/forms-api/v1');
    const { user, form } = await contractForm(app);
    const created = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: {
        signers: [
          { slot_number: 1, first_name: 'Tom', last_name: 'Tenant', email: 'tenant@example.com' },
          { slot_number: 2, first_name: 'Lena', last_name: 'Landlord', email: 'landlord@example.com' },
        ],
        copy_mode: 'always',
      },
    });
    t.is(created.status, 201);
    const codes = created.body.signer_links.map((l: any) => l.short_code as string);
    for (const [i, code] of codes.entries()) t.is((await app.api('POST', `/s/${code}/sign`, { body: typed(['Tom Tenant', 'Lena Landlord'][i]!) })).status, 200);
    await to('tenant@example.com'); // the copies follow the seal
    const docs = (await app.api('GET', `/signing-sessions/${created.body.id}/documents`, { key: user.key })).body.documents;
    t.is(docs.length, 1);
    t.true(docs[0].document_url.startsWith(`${app.url}/forms-api/v1/`), docs[0].document_url);
    for (const [i, address] of ['tenant@example.com', 'landlord@example.com'].entries()) {
      const copy = (await to(address)).find((m) => m.subject === 'Signed: Lease agreement')!;
      const link = `${app.url}/forms-api/v1/s/${codes[i]}/signed-documents/${docs[0].id}`;
      t.true(text(copy).includes(link), text(copy));
      t.false(text(copy).includes('/api/v1/'), text(copy));
      const res = await fetch(link);
      t.is(res.status, 200);
      t.is(res.headers.get('content-type'), 'application/pdf');
      const pdf = Buffer.from(await res.arrayBuffer());
      t.is(`sha256:${createHash('sha256').update(pdf).digest('hex')}`, docs[0].document_hash, 'the link serves the sealed bytes');
    }
  });

  test(`[${kind}] copy_mode ask sends copies only to who asked; decline and expiry notifications; void notices only to who signed`, async (t) => {
    const { app, smtp, clock, to } = await rig(t, kind);
    const { user, form } = await contractForm(app);
    const signers = (tag: string) => [
      { slot_number: 1, first_name: 'Ann', email: `ann-${tag}@example.com` },
      { slot_number: 2, first_name: 'Bob', email: `bob-${tag}@example.com` },
    ];
    const session = async (tag: string, body: Record<string, unknown> = {}) => {
      const res = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { signers: signers(tag), ...body } });
      t.is(res.status, 201);
      return { id: res.body.id as string, codes: res.body.signer_links.map((l: any) => l.short_code as string) as string[] };
    };

    const ask = await session('ask', { copy_mode: 'ask' });
    await app.api('POST', `/s/${ask.codes[0]}/sign`, { body: { ...typed('Ann'), send_copy: true } });
    await app.api('POST', `/s/${ask.codes[1]}/sign`, { body: { ...typed('Bob'), send_copy: false } });
    const [annCopy] = await to('ann-ask@example.com');
    t.is(annCopy!.subject, 'Signed: Lease agreement');

    const declined = await session('decline', { notify_emails: ['watch@example.com'], notify_events: ['decline'] });
    await app.api('POST', `/s/${declined.codes[0]}/sign`, { body: typed('Ann') });
    t.is((await app.api('POST', `/s/${declined.codes[1]}/decline`, { body: { reason: 'Rent too high' } })).status, 200);
    const [declineMail] = await to('watch@example.com');
    t.is(declineMail!.subject, 'A signer declined: Lease');
    t.true(text(declineMail!).includes('Landlord declined: Rent too high'));

    const voided = await session('void');
    await app.api('POST', `/s/${voided.codes[0]}/sign`, { body: typed('Ann') });
    t.is((await app.api('POST', `/signing-sessions/${voided.id}/void`, { key: user.key, body: { reason: 'Wrong unit number' } })).status, 200);
    const [voidMail] = await to('ann-void@example.com');
    t.is(voidMail!.subject, 'Signing voided: Lease');
    t.true(text(voidMail!).includes('Reason: Wrong unit number'));

    const expiring = await session('expiry', { expiry_days: 1, notify_emails: ['watch@example.com'], notify_events: ['expiry'] });
    clock.offsetMs = 2 * 86_400_000;
    await app.formloom.worker.housekeep();
    const [, expiryMail] = await to('watch@example.com', 2);
    t.is(expiryMail!.subject, 'Signing session expired: Lease');
    t.true(text(expiryMail!).includes(expiring.id));

    await settled(app);
    const count = (address: string) => smtp.messages.filter((m) => m.envelope.to.includes(address)).length;
    t.is(count('bob-ask@example.com'), 0, 'no copy for who did not ask');
    t.is(count('bob-void@example.com'), 0, 'no void notice for who had not signed');
    t.is(count('ann-decline@example.com') + count('bob-decline@example.com'), 0, 'a decline sends no copies');
    t.is(count('watch@example.com'), 2);
  });

  test(`[${kind}] the email verification code arrives by mail and signs; a failing SMTP server delays a mail, never loses it`, async (t) => {
    let refuse = true;
    const { app, smtp, clock, to } = await rig(t, kind, {
      onRcptTo(address, _session, callback) {
        // The first signing request meets a temporarily unavailable server.
        if (refuse && address.address === 'late@example.com') return callback(smtpReply(451, '4.3.0 try again later'));
        callback();
      },
    });
    const { user, form } = await contractForm(app, 'pro', { signer_slots: [{ slot_number: 1, label: 'Client' }] });
    const verified = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { require_email_verification: true, signers: [{ slot_number: 1, email: 'client@example.com' }] },
    });
    const code = verified.body.signer_links[0].short_code;
    t.deepEqual((await app.api('POST', `/s/${code}/send-code`, { body: {} })).body, { success: true, sent_to: 'client@example.com' });
    const [codeMail] = await to('client@example.com');
    const digits = /^Your signing code: (\d{6})$/.exec(codeMail!.subject)?.[1];
    t.truthy(digits, codeMail!.subject);
    t.true(text(codeMail!).includes(`Your code to sign "Lease" is ${digits}. It is valid for 10 minutes.`));
    const [stored] = await app.raw(`SELECT code_hash FROM signing_slots WHERE short_code = '${code}'`);
    t.false(String(stored.code_hash).includes(digits!), 'the code is kept hashed');
    const signed = await app.api('POST', `/s/${code}/sign`, { body: { ...typed('Client'), email_code: digits } });
    t.is(signed.status, 200, signed.text);

    // A lower bound only: the failed attempt came after this, so its retry is at least the backoff after it.
    const before = Date.now();
    const late = await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { send_signing_emails: true, signers: [{ slot_number: 1, email: 'late@example.com' }] },
    });
    await eventually(async () => (await app.raw(`SELECT last_error FROM outbox WHERE kind = 'mail' AND status = 'pending'`)).some((r: any) => !!r.last_error));
    const [row] = await app.raw(`SELECT status, attempts, next_attempt_at, last_error FROM outbox WHERE kind = 'mail' AND status = 'pending'`);
    t.is(Number(row.attempts), 1);
    t.regex(row.last_error, /451/);
    t.true(Date.parse(row.next_attempt_at) > before + 5000, 'retried later, with backoff');
    t.is(smtp.messages.filter((m) => m.envelope.to.includes('late@example.com')).length, 0);
    refuse = false;
    clock.offsetMs = 60 * 60_000;
    const [lateMail] = await to('late@example.com');
    t.true(text(lateMail!).includes(`${app.url}/s/${late.body.signer_links[0].short_code}`));
    await settled(app);
    t.is(smtp.messages.filter((m) => m.envelope.to.includes('late@example.com')).length, 1, 'delivered once');
  });
}
