import { X509Certificate } from 'node:crypto';
import test from 'ava';
import forge from 'node-forge';
import { certificateSerial } from '../../src/certificate-serial';

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
