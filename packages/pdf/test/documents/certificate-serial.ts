import { X509Certificate } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import forge from 'node-forge';
import { loadOrCreateSigningP12, SigningCertificateError, unlockP12 } from '../../src';
import { certificateSerial } from '../../src/certificate-serial';
import { certificateDer } from '../../src/signing-certificate';
import { tempDir } from '../helpers/pdf-tools';

/*
 * Serials of the certificates Formloom makes (docs/signing.md, "The sealing certificate"): written by node-forge as
 * given, so each must be a positive, minimal DER integer. A random first byte of zero made about one instance CA in
 * 500 that OpenSSL 3 and Node refuse to read ("illegal padding").
 */

/** A certificate with `serial`, signed by a small throwaway key: what X509Certificate makes of its DER. */
function parsedSerial(serial: string, key: forge.pki.rsa.KeyPair): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.UTC(2026, 0, 1));
  cert.validity.notAfter = new Date(Date.UTC(2027, 0, 1));
  cert.setSubject([{ name: 'commonName', value: 'serial' }]);
  cert.setIssuer([{ name: 'commonName', value: 'serial' }]);
  cert.sign(key.privateKey, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  return new X509Certificate(der).serialNumber;
}

test('serials are read back by X509Certificate whatever the random bytes, zero and high first bytes included', (t) => {
  const key = forge.pki.rsa.generateKeyPair({ bits: 512, e: 0x10001 });
  for (const first of [0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xff]) {
    const serial = certificateSerial(16, (size) => Buffer.alloc(size, first));
    t.is(serial.length, 32);
    t.is(parsedSerial(serial, key), serial.toUpperCase(), `first random byte 0x${first.toString(16)}`);
  }
  t.is(certificateSerial(15, (size) => Buffer.alloc(size, 0)), `40${'00'.repeat(14)}`);
});

test('serials stay random: 10,000 are distinct, each positive and minimal', (t) => {
  const serials = new Set<string>();
  const refused: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const serial = certificateSerial();
    const first = parseInt(serial.slice(0, 2), 16);
    if (!(first >= 0x40 && first <= 0x7f) || serial.length !== 32) refused.push(serial);
    serials.add(serial);
  }
  t.deepEqual(refused, []);
  t.is(serials.size, 10_000);
});

/** A P12 as an earlier version could make one: its certificate's serial a zero byte then one under 0x80. */
function p12WithUnreadableSerial(password: string): Buffer {
  const key = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  // node-forge drops one redundant zero byte of an INTEGER, not two: the old `0` prefix before a zero random byte.
  cert.serialNumber = `0000${'12'.repeat(14)}`;
  cert.validity.notBefore = new Date(Date.UTC(2026, 0, 1));
  cert.validity.notAfter = new Date(Date.UTC(2036, 0, 1));
  cert.setSubject([{ name: 'commonName', value: 'old seal' }]);
  cert.setIssuer([{ name: 'commonName', value: 'old seal' }]);
  cert.sign(key.privateKey, forge.md.sha256.create());
  return Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key.privateKey, [cert], password)).getBytes(), 'binary');
}

test('an instance P12 whose certificates X509Certificate cannot read is kept aside and replaced by a readable one', async (t) => {
  const dataDir = await tempDir(t);
  const old = p12WithUnreadableSerial('secret');
  await writeFile(join(dataDir, 'signing.p12'), old, { mode: 0o600 });
  // A wrong password is still the operator's error, never a reason to replace the certificate.
  await t.throwsAsync(loadOrCreateSigningP12({ dataDir, password: 'wrong' }), { instanceOf: SigningCertificateError });
  t.deepEqual(await readFile(join(dataDir, 'signing.p12')), old);

  const loaded = await loadOrCreateSigningP12({ dataDir, password: 'secret', organization: 'forms.example.com' });
  t.true(loaded.created);
  t.truthy(loaded.replaced);
  t.deepEqual(await readFile(loaded.replaced!), old, 'the old file is kept, not deleted');
  t.is(loaded.identity.subject, 'CN=forms.example.com Formloom seal, O=forms.example.com');
  for (const cert of unlockP12(loaded.p12, 'secret').chain) t.notThrows(() => new X509Certificate(certificateDer(cert)));
  t.notThrows(() => new X509Certificate(loaded.trustAnchorPem));
  const again = await loadOrCreateSigningP12({ dataDir, password: 'secret' });
  t.false(again.created);
  t.is(again.replaced, undefined);
  t.is(again.identity.fingerprint, loaded.identity.fingerprint);
  t.deepEqual((await readdir(dataDir)).filter((f) => f.startsWith('signing.p12')).length, 2);
});
