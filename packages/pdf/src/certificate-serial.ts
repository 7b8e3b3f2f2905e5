import { randomBytes } from 'node:crypto';

/**
 * A certificate serial number as the hex that node-forge takes: `bytes` random bytes (128 bits by default, unique
 * per certificate without a counter), written so that its DER INTEGER is positive and minimal, which OpenSSL 3 and
 * Node's `X509Certificate` require. node-forge writes the bytes as given: a leading zero byte followed by one under
 * 0x80 is "illegal padding" to a strict parser, and a leading byte of 0x80 or more a negative serial. So the first
 * byte is one of 0x40-0x7f: never zero, high bit clear (docs/signing.md, "The instance's certificates").
 */
export function certificateSerial(bytes = 16, random: (size: number) => Buffer = randomBytes): string {
  const serial = random(bytes);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  return serial.toString('hex');
}
