import test from '../helpers/bounded-test';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DB_KINDS, forEachDb, startTestApp, type TestApp } from '../helpers/app';
import { signaturePng } from '../helpers/png';
import { eventually, lazyRenderer, memoryMailer, ph, testRenderer } from '../helpers/signing';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/* Issue #10's evidence, read from the outside: what the sealed PDFs of a real session say (pdftotext,
   pdffonts, pdfimages), what verification reports, and where the recorded client addresses come from. */

const run = promisify(execFile);
const mailer = memoryMailer();
const CONTRACT = [
  '# Tenancy terms',
  '',
  'The tenant pays the rent **monthly** in advance.',
  '',
  '## Obligations',
  '',
  '- Keep the flat clean',
  '- Report damage promptly',
  '',
  '1. First numbered duty',
  '2. Second numbered duty',
].join('\n');

test.before(async () => {
  await testRenderer();
});

/** Runs a poppler tool on the PDF written to a temporary file. */
async function poppler(pdf: Buffer, tool: string, args: string[] = []): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-evidence-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    return (await run(tool, [...args, join(dir, 'doc.pdf'), ...(tool === 'pdftotext' ? ['-'] : [])], { maxBuffer: 16 << 20 })).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One page's text; `layout` keeps each row's columns on one line (labels beside their values). */
const pageText = (pdf: Buffer, page: number, layout = false) =>
  poppler(pdf, 'pdftotext', ['-enc', 'UTF-8', '-f', String(page), '-l', String(page), ...(layout ? ['-layout'] : [])]);
const pages = async (pdf: Buffer) => Number(/^Pages:\s+(\d+)/m.exec(await poppler(pdf, 'pdfinfo'))![1]);
/** As the PDF prints times: `YYYY-MM-DD HH:MM:SS UTC`. */
const shown = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** The height of a word's box (its font size, near enough), from `pdftotext -bbox`. */
async function wordHeight(pdf: Buffer, word: string): Promise<number> {
  const html = await poppler(pdf, 'pdftotext', ['-bbox']);
  const m = new RegExp(`<word xMin="[\\d.]+" yMin="([\\d.]+)" xMax="[\\d.]+" yMax="([\\d.]+)">${word}</word>`).exec(html);
  if (!m) throw new Error(`no word ${word}`);
  return Number(m[2]) - Number(m[1]);
}

async function download(app: TestApp, key: string, sessionId: string, kind = 1) {
  const docs = await eventually(async () => {
    const r = (await app.api('GET', `/signing-sessions/${sessionId}/documents`, { key })).body.documents;
    return r.length === kind && r;
  });
  // `document_url` is absolute and is where the PDF downloads, byte for byte as `document_hash` says.
  if (docs[0].document_url !== `${app.url}/api/v1/signing-sessions/${sessionId}/documents/${docs[0].id}`) throw new Error(`document_url ${docs[0].document_url}`);
  const res = await fetch(docs[0].document_url, { headers: { authorization: `Bearer ${key}` } });
  if (res.headers.get('content-type') !== 'application/pdf') throw new Error(`content-type ${res.headers.get('content-type')}`);
  const pdf = Buffer.from(await res.arrayBuffer());
  if (`sha256:${createHash('sha256').update(pdf).digest('hex')}` !== docs[0].document_hash) throw new Error('document_hash');
  return { doc: docs[0], pdf };
}

/** A Pro user's form with one two-slot contract question. */
async function form(app: TestApp) {
  const user = await app.user('pro');
  const slots = [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Landlord' }];
  const res = await app.api('POST', '/forms', { key: user.key, body: { title: 'Flat', questions: [{ type: 'contract', title: 'Tenancy', properties: { document: CONTRACT, signer_slots: slots } }] } });
  return { user, form: res.body };
}

forEachDb(test, (t) => {
  t('the sealed PDF: markdown rendered, typed and drawn signatures, each signer\'s facts, the certificate page', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form: f } = await form(app);
    const email = (n: number) => `party${n}-${app.kind}@example.com`;
    const created = (await app.api('POST', `/forms/${f.id}/signing-sessions`, {
      key: user.key,
      body: {
        password: 'open sesame', require_email_verification: true,
        signers: [{ slot_number: 1, first_name: 'Tom', last_name: 'Tenant', email: email(1) }, { slot_number: 2, first_name: 'Lena', last_name: 'Landlord', email: email(2) }],
      },
    })).body;
    const signatures = [{ type: 'typed', value: 'Tom Tenant' }, { type: 'drawn', value: signaturePng() }];
    for (const link of created.signer_links) {
      const n = link.slot_number;
      const ua = `EvidenceBrowser/${n}.0`;
      // Not a trusted proxy: X-Forwarded-For is ignored, the socket's address is recorded.
      const headers = { 'user-agent': ua, 'x-forwarded-for': '203.0.113.66' } as Record<string, string>;
      headers['x-access-token'] = (await app.api('POST', `/s/${link.short_code}/verify-password`, { body: { password: 'open sesame' } })).body.access_token;
      tt.is((await app.api('GET', `/s/${link.short_code}/document`, { headers })).status, 200);
      tt.is((await app.api('POST', `/s/${link.short_code}/send-code`, { headers, body: {} })).status, 200);
      const mail = await eventually(async () => mailer.sent.find((m) => m.to === email(n) && /code/.test(m.subject)));
      const code = /(\d{6})/.exec(mail.subject)![1];
      const signed = await app.api('POST', `/s/${link.short_code}/sign`, { headers, body: { signature: signatures[n - 1], email_code: code } });
      tt.is(signed.status, 200, signed.text);
    }
    const { doc, pdf } = await download(app, user.key, created.id);
    const session = (await app.api('GET', `/signing-sessions/${created.id}`, { key: user.key })).body;
    const n = await pages(pdf);
    const texts = await Promise.all(Array.from({ length: n }, (_, i) => pageText(pdf, i + 1)));
    // The certificate starts on a page of its own and may run over several (its emails, the seal's widget).
    const k = texts.findIndex((text) => text.includes('Certificate of completion')) + 1;
    tt.true(k > 1, 'a certificate page after the contract');
    // Words as pdftotext lays them out, one space between each (a list marker sits in its own column).
    const contract = texts.slice(0, k - 1).join('\n').replace(/\s+/g, ' ');
    const certificate = texts.slice(k - 1).join('\n');
    const rows = (await Promise.all(Array.from({ length: n - k + 1 }, (_, i) => pageText(pdf, k + i, true)))).join('\n').replace(/[ \t]+/g, ' ');

    // The contract text: markdown rendered (no markers printed), headings larger than the paragraphs.
    for (const s of ['Tenancy terms', 'The tenant pays the rent monthly in advance.', 'Obligations', '\u2022 Keep the flat clean', '\u2022 Report damage promptly', '1. First numbered duty', '2. Second numbered duty']) {
      tt.true(contract.includes(s), `contract pages: ${s}`);
    }
    tt.false(/\*\*|#/.test(contract), 'markdown markers are not printed');
    tt.true((await wordHeight(pdf, 'Obligations')) > (await wordHeight(pdf, 'advance.')) * 1.15, 'a heading is set larger than body text');
    // Each signature: typed in the shipped script font, drawn as the PNG image; name, email, time, IP.
    tt.regex(await poppler(pdf, 'pdffonts'), /DancingScript/);
    tt.regex(await poppler(pdf, 'pdfimages', ['-list']), /\d+\s+\d+\s+image\s+240\s+80\s/);
    for (const l of session.signer_links) {
      for (const s of [`Name: ${l.first_name} ${l.last_name}`, `Email: ${l.email}`, `Signed: ${shown(l.signed_at)}`]) tt.true(contract.includes(s), `contract pages: ${s}`);
    }
    tt.is(contract.match(/IP address: 127\.0\.0\.1/g)?.length, 2);
    tt.false(contract.includes('203.0.113.66') || certificate.includes('203.0.113.66'), 'an untrusted X-Forwarded-For is not recorded');

    // The certificate page.
    const audit = (await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key })).body.entries as any[];
    const sealedAt = audit.findIndex((e) => e.action === 'document_sealed');
    for (const s of ['Certificate of completion', `Session ID ${created.id}`, `Question ID ${doc.question_id}`, `Form ID ${f.id}`, `Audit head at sealing ${audit[sealedAt - 1].hash}`, '2 of 2 signed']) {
      tt.true(rows.includes(s), `certificate: ${s}\n${rows}`);
    }
    const unsigned = /Unsigned SHA-256 (sha256:[0-9a-f]{64})/.exec(rows);
    tt.truthy(unsigned, 'the SHA-256 of the unsigned rendering');
    tt.not(unsigned?.[1], doc.document_hash);
    tt.is(rows.match(/Verified by signing link, session password, email code/g)?.length, 2, 'each signer\'s verification methods');
    for (const l of session.signer_links) {
      tt.true(rows.includes(`Viewed ${shown(l.viewed_at)} \u00b7 IP 127.0.0.1`), `viewed by slot ${l.slot_number}`);
      tt.true(rows.includes(`Signed ${shown(l.signed_at)} \u00b7 IP 127.0.0.1`), `signed by slot ${l.slot_number}`);
      tt.true(certificate.includes(`EvidenceBrowser/${l.slot_number}.0`), `user agent of slot ${l.slot_number}`);
    }

    // Verification, then a changed audit entry: the PDF is intact but the chain no longer holds.
    tt.like((await app.api('POST', '/signing/verify', { body: { pdf_base64: pdf.toString('base64') } })).body, { valid: true, audit_chain_intact: true, session_id: created.id, document_id: doc.id });
    await app.raw(`UPDATE signing_audit_entries SET ip_address = '10.9.9.9' WHERE session_id = ${ph(app, 1)} AND action = 'signed'`, [created.id]);
    const broken = await app.api('POST', '/signing/verify', { body: { pdf_base64: pdf.toString('base64') } });
    tt.like(broken.body, { valid: false, sealed_by_this_instance: true, intact: true, known_document: true, audit_chain_intact: false, session_id: created.id, document_id: doc.id });
    tt.true(broken.body.problems.some((p: string) => /audit chain is broken/.test(p)));
  });

  t('a voided session\'s PDF carries VOIDED on every page and the void on its certificate page', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form: f } = await form(app);
    const created = (await app.api('POST', `/forms/${f.id}/signing-sessions`, { key: user.key, body: {} })).body;
    await app.api('POST', `/s/${created.signer_links[0].short_code}/sign`, { body: { signature: { type: 'typed', value: 'Only One' }, first_name: 'Only', last_name: 'One' } });
    await app.api('POST', `/signing-sessions/${created.id}/void`, { key: user.key, body: { reason: 'Wrong flat' } });
    const { pdf } = await download(app, user.key, created.id);
    const n = await pages(pdf);
    for (let p = 1; p <= n; p++) tt.regex(await pageText(pdf, p), /VOIDED/, `page ${p} of ${n}`);
    const certificate = await pageText(pdf, n);
    for (const s of ['Certificate of voided signing', 'Wrong flat', 'Only One']) tt.true(certificate.includes(s), s);
    tt.regex(await poppler(pdf, 'pdfsig'), /Signature is Valid\./);
  });
}, { mailer, signedDocuments: lazyRenderer(), config: CHEAP_PASSWORDS });

for (const kind of DB_KINDS) {
  test(`[${kind}] behind a trusted proxy (trust proxy), the signer's address comes from X-Forwarded-For`, async (t) => {
    const app = await startTestApp(kind, { trustProxy: 'loopback', mailer: memoryMailer(), signedDocuments: lazyRenderer() });
    t.teardown(() => app.close());
    const { user, form: f } = await form(app);
    const created = (await app.api('POST', `/forms/${f.id}/signing-sessions`, { key: user.key, body: {} })).body;
    const code = created.signer_links[0].short_code;
    await app.api('GET', `/s/${code}/document`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    await app.api('POST', `/s/${code}/sign`, { headers: { 'x-forwarded-for': '198.51.100.8' }, body: { signature: { type: 'typed', value: 'P' } } });
    const audit = (await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key })).body.entries as any[];
    t.is(audit.find((e) => e.action === 'document_viewed').ip_address, '198.51.100.7');
    t.is(audit.find((e) => e.action === 'signed').ip_address, '198.51.100.8');
  });
}
