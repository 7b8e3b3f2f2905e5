import { createHash } from 'node:crypto';
import { pdfkitAddPlaceholder } from '@signpdf/placeholder-pdfkit';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';

/** `sha256:<hex>` of the bytes: a signed document's `document_hash`. */
export function documentHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Raised when a PDF cannot be sealed: no placeholder (already sealed, or not rendered here), or a bad P12. */
export class SealError extends Error {
  override name = 'SealError';
}

export interface PlaceholderOptions {
  /** The seal's signing time, written into the signature dictionary (`/M`). */
  signingTime: Date;
  /** Bytes reserved for the PKCS#7 blob; it must hold the certificate chain too. */
  signatureLength: number;
  /** Shown by viewers as the signer's name. */
  name: string;
}

/**
 * Adds the empty signature field and its `/ByteRange` and `/Contents` placeholders to a pdfkit document; call
 * on its last page, just before `end()`. The widget is invisible: the certificate page is the visible record.
 */
export function addSealPlaceholder(doc: PDFKit.PDFDocument, options: PlaceholderOptions): void {
  pdfkitAddPlaceholder({
    pdf: doc,
    pdfBuffer: Buffer.alloc(0),
    reason: 'Sealed record of an electronic signing session',
    contactInfo: '',
    name: options.name,
    location: '',
    signingTime: options.signingTime,
    signatureLength: options.signatureLength,
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    appName: 'Formloom',
  });
}

/** How much room to reserve for a signature made with this chain (DER bytes of its certificates). */
export function signatureLengthFor(chainBytes: number): number {
  // RSA signature, signed attributes and ASN.1 framing take well under 4 KiB beyond the certificates.
  return Math.max(8192, chainBytes + 4096);
}

/**
 * Fills the placeholder with an `adbe.pkcs7.detached` signature over everything but the signature itself.
 * The result must never be re-saved: any change after this breaks the seal.
 */
export async function sealPdf(pdf: Uint8Array, p12: Uint8Array, password: string, signingTime: Date): Promise<Buffer> {
  const signer = new P12Signer(Buffer.from(p12), { passphrase: password });
  try {
    return await new SignPdf().sign(Buffer.from(pdf), signer, signingTime);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/ByteRange/i.test(message)) {
      throw new SealError('the PDF has no empty signature placeholder: it was not rendered for sealing, or is sealed already');
    }
    throw new SealError(`the PDF could not be sealed: ${message}`);
  }
}
