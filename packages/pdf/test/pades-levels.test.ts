import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import anyTest, { type TestFn } from 'ava';
import * as pkijs from 'pkijs';
import { createPdfDocumentRenderer, createTimestampClient, RevocationError, TimestampError, verifyPdf } from '../src';
import { dict, objectAt, type PdfDict, type PdfValue, refOf, revisions } from './helpers/incremental-updates';
import { createInstanceCa, type InstanceCa } from '../src/instance-ca';
import { signedInput } from './helpers/fixtures';
import { pdfsig, tempDir, writePdf } from './helpers/pdf-tools';
import { startTestTsa, type TestTsa } from '../src/testing/test-tsa';
import { derFromContents } from '../src/testing/der';

const run = promisify(execFile);
const LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
type Level = (typeof LEVELS)[number];

// The checks run side by side (their openssl and poppler children overlap); only the test that takes the TSA
// down is serial, and ava runs serial tests before the concurrent ones, so no other test meets it down.
const test = anyTest as TestFn<{ ca: InstanceCa; tsa: TestTsa; sealed: Record<Level, Buffer>; dir: string }>;

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

/** The DER streams a DSS array names, read from the final revision. */
function dssStreams(pdf: Buffer, refs: PdfValue | undefined): Buffer[] {
  return ((refs ?? []) as PdfValue[]).map((value) => {
    const number = refOf(value)!;
    const text = pdf.toString('latin1');
    const at = [...text.matchAll(new RegExp(`(?:^|[\\r\\n])${number} 0 obj\\s*<<\\s*/Length (\\d+)\\s*>>\\s*stream\\r?\\n`, 'g'))].pop()!;
    const start = at.index! + at[0].length;
    return pdf.subarray(start, start + Number(at[1]));
  });
}

/**
 * What pyHanko's difference analysis asks of the updates after a DocMDP P=1 certification (its
 * `ModificationLevel.LTA_UPDATES`, the only level P=1 permits): one revision per step, each with only the
 * objects the step needs, nothing earlier redefined but the catalog (a `/DSS` added) and the AcroForm (one
 * field appended to `/Fields`), and a document timestamp field that is invisible and has no appearance.
 */
for (const level of LEVELS) {
  test(`${level}: the updates after the certifying seal are only those a DocMDP P=1 certification allows`, (t) => {
    const pdf = t.context.sealed[level];
    const all = revisions(pdf);
    t.is(all.length, { 'B-B': 1, 'B-T': 1, 'B-LT': 2, 'B-LTA': 3 }[level]);
    t.is(all[all.length - 1]!.end, pdf.length, 'nothing after the last %%EOF');
    const sealedRevision = all[0]!;
    const rootNumber = Number(/\/Root (\d+) 0 R/.exec(pdf.toString('latin1'))![1]);
    const catalog = dict(sealedRevision.objects.get(rootNumber));
    const permsRef = refOf(catalog.Perms);
    const perms = permsRef === undefined ? (catalog.Perms as PdfDict) : dict(objectAt(all, 0, permsRef));
    const seal = dict(objectAt(all, 0, refOf(perms.DocMDP)!));
    t.is(((seal.Reference as PdfDict[])[0]!.TransformParams as PdfDict).P, 1);
    const formNumber = refOf(catalog.AcroForm)!;
    for (let index = 1; index < all.length; index++) {
      const revision = all[index]!;
      const added = [...revision.objects.keys()].filter((n) => objectAt(all, index - 1, n) === undefined);
      const redefined = [...revision.objects.keys()].filter((n) => !added.includes(n));
      if (index === 1) {
        // The DSS revision: certificate and CRL streams, the VRI and the DSS; the catalog gains /DSS only.
        t.deepEqual(redefined, [rootNumber], `${level}: the DSS revision redefines the catalog only`);
        const before = dict(objectAt(all, 0, rootNumber));
        const after = dict(revision.objects.get(rootNumber));
        const { DSS, ...rest } = after;
        t.deepEqual(rest, before, 'the catalog is unchanged but for /DSS');
        t.true(added.includes(refOf(DSS)!));
        for (const number of added) {
          const body = revision.objects.get(number)!;
          const type = /^<<\s*\/Length \d+\s*>>\s*stream/.test(body) ? 'stream' : dict(body).Type;
          t.true(['stream', '/DSS', '/VRI'].includes(type as string), `${level}: object ${number} of the DSS revision is ${String(type)}`);
        }
      } else {
        // The document timestamp revision: its signature dictionary, its field, the AcroForm with the field added.
        t.deepEqual(redefined, [formNumber], 'the timestamp revision redefines the AcroForm only');
        t.is(added.length, 2, 'a signature dictionary and its field, and nothing else (no appearance stream)');
        const field = added.map((n) => dict(revision.objects.get(n))).find((d) => d.FT === '/Sig')!;
        t.truthy(field, 'a signature field');
        t.false('AP' in field, 'no /AP: an appearance is form filling, which P=1 forbids');
        t.false('Kids' in field, 'the field is its own widget');
        const [x1, y1, x2, y2] = field.Rect as number[];
        t.is(Math.abs(x2! - x1!) * Math.abs(y2! - y1!), 0, 'invisible: a zero-size /Rect');
        const stamp = dict(revision.objects.get(refOf(field.V)!));
        t.true(added.includes(refOf(field.V)!), '/V is a new object');
        t.is(stamp.Type, '/DocTimeStamp');
        t.is(stamp.SubFilter, '/ETSI.RFC3161');
        const oldForm = dict(objectAt(all, index - 1, formNumber));
        const newForm = dict(revision.objects.get(formNumber));
        const { Fields: oldFields, ...oldRest } = oldForm;
        const { Fields: newFields, ...newRest } = newForm;
        t.deepEqual(newRest, oldRest, 'the AcroForm is unchanged but for /Fields');
        t.deepEqual(newFields, [...(oldFields as PdfValue[]), { ref: added.find((n) => dict(revision.objects.get(n)).FT === '/Sig')! }]);
      }
    }
  });
}

test('B-LT and B-LTA: the DSS holds both chains, the CRLs of both (the TSA root\'s fetched over HTTP) and a VRI for the seal', async (t) => {
  const { ca, tsa } = t.context;
  t.notRegex(t.context.sealed['B-T'].toString('latin1'), /\/DSS/);
  t.true(tsa.crlRequests >= 2, 'the TSA root CRL was fetched from the URL its certificate names');
  for (const level of ['B-LT', 'B-LTA'] as const) {
    const pdf = t.context.sealed[level];
    const all = revisions(pdf);
    const rootNumber = Number(/\/Root (\d+) 0 R/.exec(pdf.toString('latin1'))![1]);
    const dss = dict(objectAt(all, all.length - 1, refOf(dict(objectAt(all, all.length - 1, rootNumber)).DSS)!));
    const certs = dssStreams(pdf, dss.Certs);
    const subjects = certs.map((der) => new X509Certificate(der).subject.replace(/\n/g, ', '));
    t.true(certs.some((der) => der.equals(ca.caCertificate)), 'the CA certificate');
    t.true(subjects.some((s) => s.includes('Formloom seal') && !s.includes('CA')), 'the sealing certificate');
    t.true(certs.some((der) => der.equals(tsa.leafCertificate)), "the TSA's certificate");
    t.true(subjects.some((s) => s.includes('Formloom Test TSA Root')), "the TSA's root");
    const crls = dssStreams(pdf, dss.CRLs);
    t.is(crls.length, 2);
    t.true(crls.some((crl) => crl.equals(ca.crl)), "the instance CA's CRL");
    t.true(crls.some((crl) => crl.equals(tsa.crl)), "the TSA root's CRL, which the TSA certificate names");
    // The VRI key is the SHA-1 of the seal's whole /Contents value (PAdES, EN 319 142-1 5.4.2.2).
    const text = pdf.toString('latin1');
    const [, start, end] = signatures(pdf)[0]!.range;
    const contents = Buffer.from(text.slice(start! + 1, end! - 1), 'hex');
    const key = createHash('sha1').update(contents).digest('hex').toUpperCase();
    const vri = dict(objectAt(all, all.length - 1, refOf((dss.VRI as PdfDict)[key])!));
    t.is(vri.Type, '/VRI');
    t.deepEqual(vri.CRL, dss.CRLs);
    t.deepEqual(vri.Cert, dss.Certs);
  }
});

test('B-LT: a CRL that cannot be fetched fails the seal (RevocationError); the fetcher is injectable', async (t) => {
  const { ca, tsa } = t.context;
  const asked: string[] = [];
  const renderer = createPdfDocumentRenderer({
    p12: ca.p12,
    level: 'B-LT',
    timestamps: createTimestampClient({ url: tsa.url }),
    crls: [ca.crl],
    fetchRevocation: async (url) => {
      asked.push(url);
      throw new Error('offline');
    },
  });
  const rendered = await renderer.renderSigned(signedInput());
  await t.throwsAsync(renderer.seal(rendered), { instanceOf: RevocationError, message: /the CRL at http:\/\/127\.0\.0\.1:\d+\/root\.crl cannot be fetched: offline/ });
  t.deepEqual(asked, [tsa.crlUrl], "only the TSA's CRL: the instance CA's is at hand");
  const wrong = createPdfDocumentRenderer({ p12: ca.p12, level: 'B-LT', timestamps: createTimestampClient({ url: tsa.url }), crls: [ca.crl], fetchRevocation: async () => ca.crl });
  await t.throwsAsync(wrong.seal(rendered), { instanceOf: RevocationError, message: /not one of the certificate's issuer/ });
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

test.serial('a timestamp authority that is down fails the seal with a TimestampError (nothing sealed below the level asked)', async (t) => {
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
