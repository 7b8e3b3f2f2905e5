import { createHash } from 'node:crypto';
import { addSignatureTimestamp, buildCadesSignature, type CadesSigner, encodeSignedData, signatureValue } from './cms';
import { appendDocumentTimestampPlaceholder, appendDss } from './incremental';
import { BYTE_RANGE_PLACEHOLDER } from './placeholder';
import { httpRevocationFetcher, type RevocationFetcher, revocationData } from './revocation';
import { type TimestampClient, tokenCertificates } from './timestamp';

/** PAdES baseline levels (ETSI EN 319 142-1): each adds to the one before. */
export const PADES_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type PadesLevel = (typeof PADES_LEVELS)[number];

/** Raised when a PDF cannot be sealed: no placeholder (already sealed, or not rendered here), or no room. */
export class SealError extends Error {
  override name = 'SealError';
}

/** Room for a document timestamp token: the TSA's certificates dominate. */
const DOCUMENT_TIMESTAMP_LENGTH = 16_384;

interface Placeholder {
  byteRangeStart: number;
  byteRangeEnd: number;
  contentsStart: number;
  contentsEnd: number;
}

/** The last unfilled signature dictionary: its `/ByteRange [0 /*** ...]` and the `/Contents <00...>` after it. */
function findPlaceholder(pdf: Buffer): Placeholder {
  const text = pdf.toString('latin1');
  const pattern = `/ByteRange [0 /${BYTE_RANGE_PLACEHOLDER} /${BYTE_RANGE_PLACEHOLDER} /${BYTE_RANGE_PLACEHOLDER}]`;
  const byteRangeStart = text.lastIndexOf(pattern);
  if (byteRangeStart < 0) {
    throw new SealError('the PDF has no empty signature placeholder: it was not rendered for sealing, or is sealed already');
  }
  const contents = /\/Contents\s*<(0*)>/.exec(text.slice(byteRangeStart));
  if (!contents) throw new SealError('the signature placeholder has no /Contents');
  const contentsStart = byteRangeStart + contents.index + contents[0].indexOf('<');
  return {
    byteRangeStart,
    byteRangeEnd: byteRangeStart + pattern.length,
    contentsStart,
    contentsEnd: contentsStart + contents[1].length + 2,
  };
}

/**
 * Writes the byte range into the placeholder, asks `sign` for the blob over the covered bytes and puts it,
 * hex and zero-padded, into `/Contents`. Returns the `/Contents` value too (its SHA-1 keys the DSS's VRI).
 */
async function fillSignature(pdf: Buffer, sign: (covered: Buffer) => Promise<Buffer>): Promise<{ pdf: Buffer; contents: Buffer }> {
  const at = findPlaceholder(pdf);
  const range = [0, at.contentsStart, at.contentsEnd, pdf.length - at.contentsEnd];
  const rangeText = `/ByteRange [${range.join(' ')}]`;
  const width = at.byteRangeEnd - at.byteRangeStart;
  if (rangeText.length > width) throw new SealError('the byte range does not fit its placeholder');
  const out = Buffer.from(pdf);
  out.write(rangeText.padEnd(width, ' '), at.byteRangeStart, 'latin1');
  const covered = Buffer.concat([out.subarray(0, at.contentsStart), out.subarray(at.contentsEnd)]);
  const blob = await sign(covered);
  const room = (at.contentsEnd - at.contentsStart - 2) / 2;
  if (blob.length > room) throw new SealError(`the signature (${blob.length} bytes) does not fit the ${room} bytes reserved for it`);
  const hex = blob.toString('hex').padEnd(room * 2, '0');
  out.write(hex, at.contentsStart + 1, 'latin1');
  return { pdf: out, contents: Buffer.from(hex, 'hex') };
}

export interface PadesSealOptions {
  signer: CadesSigner;
  level: PadesLevel;
  /** Needed from B-T on. */
  timestamps?: TimestampClient;
  /** CRLs (DER) of the chain that the caller holds (the instance CA's), for the DSS from B-LT on. */
  crls?: Buffer[];
  /**
   * Fetches the CRLs that the other certificates (the TSA's chain, an operator's) name, from B-LT on; default
   * a plain HTTP GET. A CRL that cannot be had fails the seal (`RevocationError`), as a TSA that is down does.
   */
  fetchRevocation?: RevocationFetcher;
}

/**
 * Seals a PDF rendered with `addSealPlaceholder` to the given PAdES level. Any timestamp failure throws: the
 * caller's job is retried, and no document is ever sealed below the level the operator asked for.
 */
export async function sealPades(pdf: Uint8Array, options: PadesSealOptions): Promise<Buffer> {
  const level = PADES_LEVELS.indexOf(options.level);
  if (level < 0) throw new SealError(`unknown PAdES level ${options.level}`);
  const timestamps = options.timestamps;
  if (level >= 1 && !timestamps) throw new SealError(`PAdES ${options.level} needs a timestamp authority`);
  const tsaCertificates: Buffer[] = [];
  const seal = await fillSignature(Buffer.from(pdf), async (covered) => {
    const digest = createHash('sha256').update(covered).digest();
    const { signerInfo, signedData } = buildCadesSignature(digest, options.signer);
    if (level >= 1) {
      const token = await timestamps!.timestamp(signatureValue(signerInfo));
      tsaCertificates.push(...tokenCertificates(token));
      addSignatureTimestamp(signerInfo, token);
    }
    return encodeSignedData(signedData);
  });
  let sealed = seal.pdf;
  if (level >= 2) {
    const certificates = [Buffer.from(options.signer.certificate), ...options.signer.chain.map((c) => Buffer.from(c)), ...tsaCertificates];
    const crls = await revocationData(certificates, options.crls ?? [], options.fetchRevocation ?? httpRevocationFetcher());
    sealed = appendDss(sealed, { certificates, crls, ocsps: [] }, seal.contents);
  }
  if (level >= 3) {
    const withField = appendDocumentTimestampPlaceholder(sealed, DOCUMENT_TIMESTAMP_LENGTH, BYTE_RANGE_PLACEHOLDER);
    sealed = (await fillSignature(withField, (covered) => timestamps!.timestamp(covered))).pdf;
  }
  return sealed;
}
