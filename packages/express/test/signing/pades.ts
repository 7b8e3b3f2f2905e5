import test from '../helpers/bounded-test';
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPdfDocumentRenderer, createTimestampClient, crlDistributionUrls, loadOrCreateSigningP12 } from '@formloom/pdf';
import { derFromContents, startTestTsa, type TestTsa } from '@formloom/pdf/testing';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { contractForm, eventually, memoryMailer, ph } from '../helpers/signing';

/* Issue 23: PAdES seals through the API, read from the outside: the CA certificate the API serves verifies
   the sealed PDF with OpenSSL, its fingerprint is printed on the certificate page, and a timestamp authority
   that is down leaves the session unsealed (never `completed`) with a logged error until the outbox retries. */

const run = promisify(execFile);
let tsa: TestTsa;
let renderer: ReturnType<typeof createPdfDocumentRenderer>;
let sealCertificate: Buffer;
let caCrl: Uint8Array;
const CRL_URL = 'https://sign.example.test/api/v1/signing/ca.crl';

test.before(async () => {
  tsa = await startTestTsa();
  const dataDir = mkdtempSync(join(tmpdir(), 'formloom-pades-'));
  const certificate = await loadOrCreateSigningP12({ dataDir, organization: 'sign.example.test', crlUrl: CRL_URL });
  const leaf = await tool('openssl', (dir) => ['pkcs12', '-in', join(dir, 'seal.p12'), '-nokeys', '-clcerts', '-passin', 'pass:'], { 'seal.p12': Buffer.from(certificate.p12) });
  sealCertificate = new X509Certificate(leaf.stdout).raw;
  caCrl = certificate.crls[0]!;
  renderer = createPdfDocumentRenderer({ p12: certificate.p12, timestamps: createTimestampClient({ url: tsa.url }), crls: certificate.crls });
  rmSync(dataDir, { recursive: true, force: true });
});
test.after.always(() => tsa?.close());

async function signAll(app: TestApp) {
  const { user, form } = await contractForm(app);
  const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, {
    key: user.key,
    body: { signers: [{ slot_number: 1, first_name: 'Łukasz', last_name: 'Żółć' }, { slot_number: 2, first_name: 'Lena', last_name: 'Landlord' }] },
  })).body;
  for (const link of created.signer_links) {
    const signed = await app.api('POST', `/s/${link.short_code}/sign`, { body: { signature: { type: 'typed', value: `${link.first_name} ${link.last_name}` } } });
    if (signed.status !== 200) throw new Error(signed.text);
  }
  return { user, session: created };
}

async function tool(cmd: string, args: (dir: string) => string[], files: Record<string, string | Buffer>): Promise<{ stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-pades-tool-'));
  try {
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
    return await run(cmd, args(dir), { maxBuffer: 16 << 20 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of DB_KINDS) {
  test.serial(`${kind}: the served CA certificate verifies the B-LTA seal, and its fingerprint is on the certificate page`, async (t) => {
    const app = await startTestApp(kind, { mailer: memoryMailer(), signedDocuments: renderer });
    t.teardown(() => app.close());
    app.formloom.worker.start({ pollMs: 50 });
    const served = await fetch(`${app.url}/api/v1/signing/certificate`);
    t.is(served.status, 200);
    t.regex(served.headers.get('content-type') ?? '', /application\/x-pem-file/);
    const pem = await served.text();
    const ca = new X509Certificate(pem);
    t.true(ca.ca, 'a CA certificate');
    t.regex(ca.subject, /O=sign\.example\.test/);
    // Issue 34 (15): the seal certificate names the instance CA's CRL, and the API serves it, signed by that CA.
    t.deepEqual(crlDistributionUrls(sealCertificate), [CRL_URL]);
    const crlAnswer = await fetch(`${app.url}/api/v1/signing/ca.crl`);
    t.is(crlAnswer.status, 200);
    t.is(crlAnswer.headers.get('content-type'), 'application/pkix-crl');
    const crl = Buffer.from(await crlAnswer.arrayBuffer());
    t.true(crl.equals(Buffer.from(caCrl)));
    const crlCheck = await tool('openssl', (dir) => ['crl', '-inform', 'DER', '-in', join(dir, 'ca.crl'), '-CAfile', join(dir, 'ca.pem'), '-noout'], { 'ca.crl': crl, 'ca.pem': pem });
    t.regex(crlCheck.stderr + crlCheck.stdout, /verify OK/);

    const { user, session } = await signAll(app);
    const docs = await eventually(async () => {
      const list = (await app.api('GET', `/signing-sessions/${session.id}/documents`, { key: user.key })).body.documents;
      return list.length === 1 && list;
    });
    const pdf = Buffer.from(await (await fetch(docs[0].document_url, { headers: { authorization: `Bearer ${user.key}` } })).arrayBuffer());
    const text = pdf.toString('latin1');
    const [, a, b, c, d] = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)/.exec(text)!.map(Number);
    const blob = derFromContents(text.slice(b + 1, c - 1));
    const covered = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
    const verified = await tool('openssl', (dir) => ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(dir, 's.der'), '-content', join(dir, 'd.bin'), '-CAfile', join(dir, 'ca.pem'), '-purpose', 'any', '-out', '/dev/null'], {
      's.der': blob,
      'd.bin': covered,
      'ca.pem': pem,
    });
    t.regex(verified.stderr, /Verification successful/);
    const report = (await tool('pdfsig', (dir) => [join(dir, 'doc.pdf')], { 'doc.pdf': pdf })).stdout;
    t.regex(report, /Signature #1:[\s\S]*?ETSI\.CAdES\.detached[\s\S]*?Signature is Valid\./);
    t.regex(report, /Signature #2:[\s\S]*?Total document signed/);
    const all = (await tool('pdftotext', (dir) => ['-enc', 'UTF-8', join(dir, 'doc.pdf'), '-'], { 'doc.pdf': pdf })).stdout;
    const fingerprint = createHash('sha256').update(ca.raw).digest('hex');
    t.true(all.includes(`sha256:${fingerprint}`), `the CA fingerprint is printed: ${fingerprint}\n${all.slice(all.indexOf('Seal CA') - 40, all.indexOf('Seal CA') + 200)}`);
    t.true(all.includes('Sealed by sign.example.test'), 'the visible seal names the organisation');
    const verify = await app.api('POST', '/signing/verify', { body: { pdf_base64: pdf.toString('base64') } });
    t.true(verify.body.valid, JSON.stringify(verify.body));
  });

  test.serial(`${kind}: a timestamp authority that is down leaves the session unsealed, logs the error and the outbox retries`, async (t) => {
    const errors: string[] = [];
    const logger = { info: () => undefined, warn: () => undefined, error: (m: string) => void errors.push(m) };
    const app = await startTestApp(kind, { mailer: memoryMailer(), signedDocuments: renderer, logger });
    t.teardown(() => app.close());
    tsa.down = true;
    try {
      app.formloom.worker.start({ pollMs: 50 });
      const { user, session } = await signAll(app);
      await eventually(async () => errors.some((e) => e.includes(session.id) && /timestamp authority .* answered HTTP 503/.test(e)));
      t.regex(errors.find((e) => e.includes(session.id))!, /will retry/);
      const [row] = await app.raw(`SELECT status FROM signing_sessions WHERE id = ${ph(app, 1)}`, [session.id]);
      t.is(row.status, 'completing', 'never completed without its seal');
      t.is((await app.api('GET', `/signing-sessions/${session.id}/documents`, { key: user.key })).body.documents.length, 0);
      tsa.down = false;
      // Bring the retry forward instead of waiting out the backoff.
      await app.raw(`UPDATE outbox SET next_attempt_at = ${ph(app, 1)} WHERE kind = 'signing_seal' AND status = 'pending'`, [new Date(0).toISOString()]);
      await eventually(async () => (await app.raw(`SELECT status FROM signing_sessions WHERE id = ${ph(app, 1)}`, [session.id]))[0].status === 'completed');
      t.is((await app.api('GET', `/signing-sessions/${session.id}/documents`, { key: user.key })).body.documents.length, 1);
    } finally {
      tsa.down = false;
    }
  });
}
