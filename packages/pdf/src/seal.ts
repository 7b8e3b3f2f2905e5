import { createHash } from 'node:crypto';

export { SealError } from './pades/seal-pdf';

/** `sha256:<hex>` of the bytes: a signed document's `document_hash`. */
export function documentHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** How much room to reserve for a seal made with this chain (DER bytes of its certificates). */
export function signatureLengthFor(chainBytes: number, withTimestamp: boolean): number {
  // RSA signature, signed attributes and ASN.1 framing take well under 4 KiB beyond the certificates; a
  // signature timestamp adds the authority's token with its own certificates.
  return Math.max(8192, chainBytes + 4096) + (withTimestamp ? 16_384 : 0);
}
