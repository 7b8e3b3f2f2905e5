import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { createPdfDocumentRenderer, createSelfSignedP12, loadOrCreateSigningP12, SigningCertificateError, unlockP12 } from '../../src';
import { certificateDer } from '../../src/signing-certificate';

const run = promisify(execFile);
import { signedInput } from '../helpers/fixtures';
import { opensslP12, pdfsig, tempDir, writePdf } from '../helpers/pdf-tools';

test('without an operator P12 an instance CA and a sealing certificate under it are made once (mode 0600) and reused', async (t) => {
  const dataDir = join(await tempDir(t), 'data');
  const first = await loadOrCreateSigningP12({ dataDir, organization: 'forms.example.com' });
  t.is(first.source, 'self-signed');
  t.true(first.created);
  t.is(first.path, join(dataDir, 'signing.p12'));
  t.is((await stat(first.path)).mode & 0o777, 0o600);
  t.is(first.identity.subject, 'CN=forms.example.com Formloom seal, O=forms.example.com');
  t.is(first.identity.issuer, 'CN=forms.example.com Formloom seal CA, O=forms.example.com');
  t.regex(first.identity.fingerprint, /^sha256:[0-9a-f]{64}$/);
  // OpenSSL, not our code, checks the chain and the CA's CRL.
  const dir = await tempDir(t);
  const caPath = join(dir, 'ca.pem');
  await writeFile(caPath, first.trustAnchorPem);
  const sealPem = new X509Certificate(certificateDer(unlockP12(first.p12).certificate)).toString();
  await writeFile(join(dir, 'seal.pem'), sealPem);
  const verified = await run('openssl', ['verify', '-CAfile', caPath, join(dir, 'seal.pem')]);
  t.regex(verified.stdout, /seal\.pem: OK/);
  t.is(first.crls.length, 1);
  await writeFile(join(dir, 'ca.crl'), first.crls[0]);
  const crl = await run('openssl', ['crl', '-inform', 'DER', '-in', join(dir, 'ca.crl'), '-CAfile', caPath, '-noout', '-text']);
  t.regex(crl.stderr + crl.stdout, /verify OK/);
  t.regex(crl.stdout, /No Revoked Certificates/);
  // Another installation gets another CA and serial.
  const other = await loadOrCreateSigningP12({ dataDir: join(dir, 'other'), organization: 'forms.example.com' });
  t.not(new X509Certificate(other.trustAnchorPem).serialNumber, new X509Certificate(first.trustAnchorPem).serialNumber);
  t.not(other.identity.fingerprint, first.identity.fingerprint);

  const second = await loadOrCreateSigningP12({ dataDir });
  t.false(second.created);
  t.is(second.identity.fingerprint, first.identity.fingerprint);
  t.true(Buffer.from(second.p12).equals(Buffer.from(first.p12)));

  const renderer = createPdfDocumentRenderer({ p12: second.p12, password: second.password });
  t.is(renderer.certificateFingerprint, first.identity.fingerprint);

  // A file restored with a looser mode is tightened again on the next start.
  await chmod(first.path, 0o644);
  await loadOrCreateSigningP12({ dataDir });
  t.is((await stat(first.path)).mode & 0o777, 0o600);
});

test('two starts at once (concurrent calls) end up with one self-signed certificate', async (t) => {
  const dataDir = await tempDir(t);
  const results = await Promise.all([loadOrCreateSigningP12({ dataDir }), loadOrCreateSigningP12({ dataDir })]);
  t.is(results[0].identity.fingerprint, results[1].identity.fingerprint);
  t.is(results.filter((result) => result.created).length, 1);
});

test('an operator P12 with a password seals documents under its own name', async (t) => {
  const dir = await tempDir(t);
  const p12Path = await opensslP12(dir, 'Acme Contracts Seal', 's3cret pass');
  const loaded = await loadOrCreateSigningP12({ dataDir: join(dir, 'data'), p12Path, password: 's3cret pass' });
  t.is(loaded.source, 'operator');
  t.false(loaded.created);
  t.is(loaded.identity.subject, 'CN=Acme Contracts Seal');
  await t.throwsAsync(stat(join(dir, 'data', 'signing.p12')), { code: 'ENOENT' }, 'nothing is written for an operator P12');

  const renderer = createPdfDocumentRenderer({ p12: loaded.p12, password: loaded.password });
  const sealed = await renderer.seal(await renderer.renderSigned(signedInput()));
  const report = await pdfsig(await writePdf(dir, 'operator.pdf', sealed.pdf));
  t.regex(report, /Signer Certificate Common Name: Acme Contracts Seal/);
  t.regex(report, /Signature is Valid\./);
  t.regex(report, /Total document signed/);
  const result = await renderer.verify(sealed.pdf);
  t.true(result.valid);
  t.is(result.certificate?.fingerprint, loaded.identity.fingerprint);
});

test('a wrong P12 password is a clear error, at load and when creating a renderer', async (t) => {
  const dir = await tempDir(t);
  const p12Path = await opensslP12(dir, 'Acme', 'right');
  const error = await t.throwsAsync(loadOrCreateSigningP12({ dataDir: dir, p12Path, password: 'wrong' }), {
    instanceOf: SigningCertificateError,
  });
  t.is(error?.message, 'the signing certificate (P12) password is wrong');

  const selfSigned = createSelfSignedP12({ commonName: 'X', password: 'one' });
  t.throws(() => createPdfDocumentRenderer({ p12: selfSigned, password: 'two' }), {
    instanceOf: SigningCertificateError,
    message: 'the signing certificate (P12) password is wrong',
  });
  t.notThrows(() => unlockP12(selfSigned, 'one'));
});

test('a self-signed P12 made with a password needs it on the next start', async (t) => {
  const dataDir = await tempDir(t);
  await loadOrCreateSigningP12({ dataDir, password: 'kept secret' });
  await t.throwsAsync(loadOrCreateSigningP12({ dataDir }), { instanceOf: SigningCertificateError, message: /password is wrong/ });
  t.true((await loadOrCreateSigningP12({ dataDir, password: 'kept secret' })).identity.subject.includes('Formloom'));
});

test('a missing or unreadable P12 is a clear error naming the path', async (t) => {
  const dir = await tempDir(t);
  const missing = join(dir, 'nope.p12');
  await t.throwsAsync(loadOrCreateSigningP12({ dataDir: dir, p12Path: missing }), {
    instanceOf: SigningCertificateError,
    message: `cannot read the signing certificate at ${missing}: ENOENT`,
  });
  const garbage = join(dir, 'garbage.p12');
  await writeFile(garbage, 'this is not a certificate');
  await t.throwsAsync(loadOrCreateSigningP12({ dataDir: dir, p12Path: garbage }), {
    instanceOf: SigningCertificateError,
    message: /not a readable PKCS#12 \(P12\) file/,
  });
});
