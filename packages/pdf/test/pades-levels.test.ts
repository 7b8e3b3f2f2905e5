import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import anyTest, { type TestFn } from 'ava';
import * as pkijs from 'pkijs';
import { createPdfDocumentRenderer, createTimestampClient, TimestampError, verifyPdf } from '../src';
import { createInstanceCa, type InstanceCa } from '../src/instance-ca';
import { signedInput } from './helpers/fixtures';
import { pdfsig, tempDir, writePdf } from './helpers/pdf-tools';
import { startTestTsa, type TestTsa } from '../src/testing/test-tsa';
import { derFromContents } from '../src/testing/der';

const run = promisify(execFile);
const LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
type Level = (typeof LEVELS)[number];

const test = anyTest.serial as TestFn<{ ca: InstanceCa; tsa: TestTsa; sealed: Record<Level, Buffer>; dir: string }>;

// One CA (two RSA keys), one TSA key and four renderings for the whole file: key generation is the slow part.
test.before(async (t) => {
  const tsa = await startTestTsa();
  const ca = createInstanceCa({ organization: 'forms.example.com' });
  const sealed = {} as Record<Level, Buffer>;
  for (const level of LEVELS) {
    const timestamps = level === 'B-B' ? undefined : createTimestampClient({ url: tsa.url });
    const renderer = createPdfDocumentRenderer({ p12: ca.p12, level, timestamps, crls: [ca.crl] });
    sealed[level] = Buffer.from((await renderer.seal(await renderer.renderSigned(signedInput()))).pdf);
  }
  t.context = { ca, tsa, sealed, dir: '' };
});
test.after.always((t) => t.context.tsa?.close());

/** Every `/ByteRange` and its `/Contents` blob, read here from the raw file as a validator would. */
function signatures(pdf: Buffer): Array<{ range: number[]; blob: Buffer; covered: Buffer; dictionary: string }> {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g)].map((m) => {
    const [a, b, c, d] = m.slice(1, 5).map(Number);
    const der = derFromContents(text.slice(b + 1, c - 1));
    const dictionary = text.slice(text.lastIndexOf(' obj', m.index), text.indexOf('endobj', m.index));
    return { range: [a, b, c, d], blob: der, covered: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]), dictionary };
  });
}

async function files(t: { teardown(fn: () => Promise<void>): void }, parts: Record<string, string | Buffer>): Promise<Record<string, string>> {
  const dir = await tempDir(t);
  const paths: Record<string, string> = {};
  for (const [name, data] of Object.entries(parts)) {
    paths[name] = join(dir, name);
    await writeFile(paths[name], data);
  }
  return paths;
}

const caPem = (ca: InstanceCa) => new X509Certificate(ca.caCertificate).toString();

/** OpenSSL's own verification of the CAdES blob over the signed bytes, and its printout of the attributes. */
async function opensslCms(t: Parameters<typeof files>[0], blob: Buffer, covered: Buffer, ca: InstanceCa) {
  const p = await files(t, { 'sig.der': blob, 'data.bin': covered, 'ca.pem': caPem(ca) });
  const verify = await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', p['sig.der'], '-content', p['data.bin'], '-CAfile', p['ca.pem'], '-purpose', 'any', '-out', '/dev/null']);
  const printed = await run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', p['sig.der']], { maxBuffer: 8 << 20 });
  return { verify: verify.stderr, printed: printed.stdout };
}

/** The signature-time-stamp token, parsed with pkijs from the unsigned attributes. */
function timestampToken(blob: Buffer): Buffer | null {
  const info = pkijs.ContentInfo.fromBER(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength) as ArrayBuffer);
  const signer = new pkijs.SignedData({ schema: info.content }).signerInfos[0];
  const attribute = signer.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
  return attribute ? Buffer.from(attribute.values[0].toBER(false)) : null;
}

/** signing-certificate-v2's first certHash equals the SHA-256 of the signer's certificate (by issuer and serial). */
function essNamesSigner(blob: Buffer): boolean {
  const info = pkijs.ContentInfo.fromBER(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength) as ArrayBuffer);
  const signedData = new pkijs.SignedData({ schema: info.content });
  const signer = signedData.signerInfos[0];
  const sid = signer.sid as pkijs.IssuerAndSerialNumber;
  const certificate = (signedData.certificates ?? []).find(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate && c.serialNumber.isEqual(sid.serialNumber),
  );
  const attribute = signer.signedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.47');
  if (!certificate || !attribute) return false;
  // SigningCertificateV2 -> certs -> ESSCertIDv2 -> certHash (the hash algorithm is the default, SHA-256).
  const essCertId = (attribute.values[0] as any).valueBlock.value[0].valueBlock.value[0];
  const certHash = Buffer.from(essCertId.valueBlock.value[0].valueBlock.valueHexView);
  return certHash.equals(createHash('sha256').update(Buffer.from(certificate.toSchema().toBER(false))).digest());
}

async function opensslTsVerify(t: Parameters<typeof files>[0], token: Buffer, data: Buffer, tsa: TestTsa): Promise<string> {
  const p = await files(t, { 'token.der': token, 'data.bin': data, 'tsa.pem': tsa.certificatePem });
  const { stdout } = await run('openssl', ['ts', '-verify', '-token_in', '-in', p['token.der'], '-data', p['data.bin'], '-CAfile', p['tsa.pem']]);
  return stdout;
}

for (const level of LEVELS) {
  test(`${level}: pdfsig and openssl cms accept an ETSI.CAdES.detached seal with signing-certificate-v2 and no signing-time attribute`, async (t) => {
    const pdf = t.context.sealed[level];
    const [seal] = signatures(pdf);
    t.regex(seal.dictionary, /\/SubFilter \/ETSI\.CAdES\.detached/);
    t.regex(seal.dictionary, /\/M \(D:20260302100131Z/);
    const report = await pdfsig(await writePdf(await tempDir(t), 'sealed.pdf', pdf));
    t.regex(report, /Signature #1:[\s\S]*?Signature Type: ETSI\.CAdES\.detached[\s\S]*?Signature is Valid\./);
    t.regex(report, level === 'B-B' || level === 'B-T' ? /Total document signed/ : /Signature #1:[\s\S]*?Not total document signed/);
    const { verify, printed } = await opensslCms(t, seal.blob, seal.covered, t.context.ca);
    t.regex(verify, /Verification successful/);
    t.regex(printed, /signingCertificateV2|1\.2\.840\.113549\.1\.9\.16\.2\.47/);
    t.notRegex(printed, /object: signingTime/);
    t.true(essNamesSigner(seal.blob), 'the ESS certHash is the SHA-256 of the certificate the signer info names');
    t.true(verifyPdf(pdf).valid, verifyPdf(pdf).problems.join('; '));
  });
}

test('B-B carries no timestamp; B-T and up carry one over the signature value that openssl ts verifies', async (t) => {
  t.is(timestampToken(signatures(t.context.sealed['B-B'])[0].blob), null);
  for (const level of ['B-T', 'B-LT', 'B-LTA'] as const) {
    const blob = signatures(t.context.sealed[level])[0].blob;
    const token = timestampToken(blob);
    t.truthy(token, level);
    const info = pkijs.ContentInfo.fromBER(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength) as ArrayBuffer);
    const signatureValue = Buffer.from(new pkijs.SignedData({ schema: info.content }).signerInfos[0].signature.valueBlock.valueHexView);
    t.regex(await opensslTsVerify(t, token!, signatureValue, t.context.tsa), /Verification: OK/, level);
  }
});

test('B-LT and B-LTA: a DSS in a later revision holds the CA, the sealing and TSA certificates and the CA CRL', async (t) => {
  t.notRegex(t.context.sealed['B-T'].toString('latin1'), /\/DSS/);
  for (const level of ['B-LT', 'B-LTA'] as const) {
    const path = await writePdf(await tempDir(t), 'lt.pdf', t.context.sealed[level]);
    const { stdout } = await run('qpdf', ['--json', '--json-key=qpdf', path], { maxBuffer: 32 << 20 });
    const objects = JSON.parse(stdout).qpdf[1] as Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>;
    const trailer = objects.trailer.value as { '/Root': string };
    const dssRef = (objects[`obj:${trailer['/Root']}`].value as Record<string, string>)['/DSS'];
    t.truthy(dssRef, `${level}: the catalog has a /DSS`);
    const dss = objects[`obj:${dssRef}`].value as { '/Certs': string[]; '/CRLs': string[] };
    const streamBytes = async (ref: string) =>
      (await run('qpdf', [`--show-object=${ref.replace(/ 0 R$/, '')}`, '--raw-stream-data', path], { encoding: 'buffer', maxBuffer: 8 << 20 })).stdout as unknown as Buffer;
    const certs = await Promise.all(dss['/Certs'].map(streamBytes));
    const subjects = certs.map((der) => new X509Certificate(der).subject.replace(/\n/g, ', '));
    t.true(certs.some((der) => der.equals(t.context.ca.caCertificate)), 'the CA certificate');
    t.true(subjects.some((s) => s.includes('Formloom seal') && !s.includes('CA')), 'the sealing certificate');
    t.true(subjects.some((s) => s.includes('Formloom Test TSA')), "the TSA's certificate");
    const crls = await Promise.all(dss['/CRLs'].map(streamBytes));
    t.is(crls.length, 1);
    t.true(crls[0].equals(t.context.ca.crl));
  }
});

test('B-LTA: a document timestamp (ETSI.RFC3161) covers the whole file including the DSS; openssl ts verifies it', async (t) => {
  const pdf = t.context.sealed['B-LTA'];
  const all = signatures(pdf);
  t.is(all.length, 2);
  const stamp = all[1];
  t.regex(stamp.dictionary, /\/Type \/DocTimeStamp/);
  t.regex(stamp.dictionary, /\/SubFilter \/ETSI\.RFC3161/);
  t.is(stamp.range[2] + stamp.range[3], pdf.length);
  t.true(stamp.covered.toString('latin1').includes('/Type /DSS'));
  t.regex(await opensslTsVerify(t, stamp.blob, stamp.covered, t.context.tsa), /Verification: OK/);
  const report = await pdfsig(await writePdf(await tempDir(t), 'lta.pdf', pdf));
  t.regex(report, /Signature #2:[\s\S]*?Total document signed/);
});

test('the seal certifies the document (DocMDP, no changes) and has a visible widget with its own appearance on the last page', async (t) => {
  const path = await writePdf(await tempDir(t), 'bb.pdf', t.context.sealed['B-B']);
  const { stdout } = await run('qpdf', ['--json', '--json-key=qpdf', path], { maxBuffer: 32 << 20 });
  const objects = JSON.parse(stdout).qpdf[1] as Record<string, { value?: any; stream?: { dict: any } }>;
  const get = (ref: string) => objects[`obj:${ref}`];
  const catalog = get((objects.trailer.value as { '/Root': string })['/Root']).value;
  const sigRef = catalog['/Perms']['/DocMDP'];
  const sig = get(sigRef).value;
  t.is(sig['/SubFilter'], '/ETSI.CAdES.detached');
  const reference = sig['/Reference'][0];
  t.is(reference['/TransformMethod'], '/DocMDP');
  t.is(reference['/TransformParams']['/P'], 1);
  const fields = get(catalog['/AcroForm']).value['/Fields'] as string[];
  const widget = fields.map((ref) => get(ref).value).find((w) => w['/V'] === sigRef);
  t.truthy(widget, 'the seal field');
  const [x1, y1, x2, y2] = widget['/Rect'] as number[];
  t.true(x2 - x1 > 200 && y2 - y1 > 40, `a real rectangle: ${widget['/Rect']}`);
  const appearance = get(widget['/AP']['/N']);
  t.is(appearance.stream?.dict['/Subtype'], '/Form');
  // The widget sits on the last page, and its appearance names the organisation.
  const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [path])).stdout)![1]);
  const last = (await run('pdftotext', ['-f', String(pages), '-l', String(pages), path, '-'])).stdout;
  t.regex(last, /Sealed by forms\.example\.com/);
  t.regex(last, /PAdES B-B/);
});

test('an edit appended after a B-LTA seal (a page redefined) is a modification, not validation data', async (t) => {
  const pdf = t.context.sealed['B-LTA'];
  const text = pdf.toString('latin1');
  const page = /(\d+) 0 obj\s*<<\s*\/Type \/Page\b/.exec(text)!;
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  const size = Number([...text.matchAll(/\/Size (\d+)/g)].pop()![1]);
  const root = [...text.matchAll(/\/Root (\d+ 0 R)/g)].pop()![1];
  const body = `${page[1]} 0 obj\n<< /Type /Page /MediaBox [0 0 10 10] >>\nendobj\n`;
  const offset = pdf.length;
  const update = `${body}xref\n0 1\n0000000000 65535 f \n${page[1]} 1\n${String(offset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${startxref} >>\nstartxref\n${offset + body.length}\n%%EOF\n`;
  const edited = Buffer.concat([pdf, Buffer.from(update, 'latin1')]);
  const result = verifyPdf(edited);
  t.false(result.valid);
  t.true(result.intact, 'the sealed bytes themselves are unchanged');
  t.true(result.problems.some((p) => /changed after sealing/.test(p)), result.problems.join('; '));
  t.true(verifyPdf(pdf).valid);
});

test('a timestamp authority that is down fails the seal with a TimestampError (nothing sealed below the level asked)', async (t) => {
  const { tsa, ca } = t.context;
  const renderer = createPdfDocumentRenderer({ p12: ca.p12, timestamps: createTimestampClient({ url: tsa.url }) });
  t.is(renderer.level, 'B-LTA', 'a TSA makes B-LTA the default');
  const rendered = await renderer.renderSigned(signedInput());
  tsa.down = true;
  try {
    await t.throwsAsync(renderer.seal(rendered), { instanceOf: TimestampError, message: /answered HTTP 503/ });
  } finally {
    tsa.down = false;
  }
  // A TSA behind basic auth: the credentials travel as a header and never appear in a message.
  const port = new URL(tsa.url).port;
  const authed = createTimestampClient({ url: `http://stamp%20user:s3cr%40t@127.0.0.1:${port}/tsa` });
  t.is(authed.url, `http://127.0.0.1:${port}/tsa`);
  await authed.timestamp(Buffer.from('data'));
  t.is(tsa.lastAuthorization, `Basic ${Buffer.from('stamp user:s3cr@t').toString('base64')}`);
  tsa.down = true;
  try {
    const error = await t.throwsAsync(authed.timestamp(Buffer.from('data')), { instanceOf: TimestampError });
    t.false(error!.message.includes('s3cr'), error!.message);
  } finally {
    tsa.down = false;
  }
  const unreachable = createPdfDocumentRenderer({ p12: ca.p12, level: 'B-T', timestamps: createTimestampClient({ url: 'http://127.0.0.1:9/tsa', timeoutMs: 3000 }) });
  await t.throwsAsync(unreachable.seal(await unreachable.renderSigned(signedInput())), { instanceOf: TimestampError, message: /cannot be reached/ });
});
