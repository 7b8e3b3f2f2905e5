import { randomBytes } from 'node:crypto';

/**
 * A certificate serial number as the hex that node-forge takes: `bytes` random bytes (16 by default: 126 random
 * bits once two bits of the first are fixed, unique per certificate without a counter), written so that its DER
 * INTEGER is positive and minimal, which OpenSSL 3 and Node's `X509Certificate` require. node-forge drops at most
 * one redundant leading zero byte: the `0` once put before the random hex (for a positive serial) made two when the
 * first random byte was zero, one of which stayed, "illegal padding" to a strict parser; a first byte of 0x80 or
 * more would be a negative serial. So the first byte is one of 0x40-0x7f: never zero, high bit clear
 * (docs/signing.md, "The sealing certificate").
 */
export function certificateSerial(bytes = 16, random: (size: number) => Buffer = randomBytes): string {
  const serial = random(bytes);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  return serial.toString('hex');
}
