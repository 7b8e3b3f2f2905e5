import test from '../helpers/bounded-test';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { forEachDb, type TestApp } from '../helpers/app';
import { contractForm, eventually, lazyRenderer, memoryMailer, testRenderer } from '../helpers/signing';

/* Issue 23: the certificate page of a real session lists the originator, the form and its version, creation and
   expiry, every email sent, who voided and why, and the CA fingerprint (pdftotext of the sealed PDF). */

const run = promisify(execFile);
const mailer = memoryMailer();
const typed = (value: string) => ({ signature: { type: 'typed', value } });
const shown = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

test.before(async () => {
  await testRenderer();
});

async function certificatePages(tt: { teardown(fn: () => void): void }, app: TestApp, key: string, sessionId: string): Promise<string> {
  const docs = await eventually(async () => {
    const list = (await app.api('GET', `/signing-sessions/${sessionId}/documents`, { key })).body.documents;
    return list.length > 0 && list;
  });
  const pdf = Buffer.from(await (await fetch(docs[0].document_url, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), 'formloom-certpage-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'doc.pdf'), pdf);
  const text = (await run('pdftotext', ['-layout', '-enc', 'UTF-8', join(dir, 'doc.pdf'), '-'])).stdout;
  // The certificate pages: from their heading to the end.
  return text.slice(text.search(/Certificate of (completion|voided signing)/)).replace(/[ \t]+/g, ' ');
}

// One test at a time: each seals PDFs in the same process as its server.
forEachDb(test.serial as typeof test, (t) => {
  t('a completed session: originator, form version, times, every email sent and the seal CA', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form } = await contractForm(app);
    const tag = `${app.kind}-${Date.now()}`;
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: {
        send_signing_emails: true, notify_emails: [`ops-${tag}@example.com`], notify_events: ['each_signature'],
        signers: [{ slot_number: 1, email: `t-${tag}@example.com` }, { slot_number: 2, email: `l-${tag}@example.com` }],
      },
    })).body;
    for (const link of created.signer_links) tt.is((await app.api('POST', `/s/${link.short_code}/sign`, { body: typed('Someone') })).status, 200);
    const page = await certificatePages(tt, app, user.key, created.id);
    for (const expected of [
      `Originator ${user.email}`,
      'Form Lease · draft',
      `Created ${shown(created.created_at)}`,
      `Expires ${shown(created.expires_at)}`,
      'Emails sent',
      `Signing request to t-${tag}@example.com`,
      `Signing request to l-${tag}@example.com`,
      `Notification (a signature) to ops-${tag}@example.com`,
      'Seal CA SHA-256 sha256:',
    ]) {
      tt.true(page.includes(expected), `missing: ${expected}\n${page}`);
    }
    tt.is(page.match(/Notification \(a signature\)/g)?.length, 2, 'one per signature');
    const audit = (await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key })).body.entries;
    tt.true(audit.filter((e: { action: string }) => e.action === 'email_sent').every((e: { details: Record<string, unknown> }) => Object.keys(e.details).sort().join() === 'kind,to'), 'the audit keeps address and kind, never a mail text');
  });

  t('a voided session: who voided it and why', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form } = await contractForm(app);
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { signers: [{ slot_number: 1 }, { slot_number: 2 }] } })).body;
    tt.is((await app.api('POST', `/s/${created.signer_links[0].short_code}/sign`, { body: typed('Early Bird') })).status, 200);
    tt.is((await app.api('POST', `/signing-sessions/${created.id}/void`, { key: user.key, body: { reason: 'Wrong flat number' } })).status, 200);
    const page = await certificatePages(tt, app, user.key, created.id);
    // (The diagonal VOIDED watermark splits the layout's rows: labels and values are checked in order.)
    const flat = page.replace(/\s+/g, ' ');
    tt.regex(flat, new RegExp(`Voided by .*${user.email.replace(/[.]/g, '\\.')}`));
    tt.regex(flat, /Void reason .*Wrong flat number/);
    tt.regex(flat, /Emails sent none/);
  });
}, { mailer, signedDocuments: lazyRenderer() });
