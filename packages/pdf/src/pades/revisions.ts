import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import { tstInfoOf } from './timestamp';

/** One `/ByteRange` of the file, with the blob that fills its gap and what kind of signature it is. */
export interface SignatureLocation {
  byteRange: [number, number, number, number];
  /** The DER blob, trailing zero padding included. */
  contents: Buffer;
  /** `/DocTimeStamp` (PAdES B-LTA) rather than a signature. */
  documentTimestamp: boolean;
  /** The dictionary's `/M`, when present. */
  claimedTime: Date | null;
}

/** Every signature of the file, in file order (the seal first, document timestamps after it). */
export function locateSignatures(pdf: Buffer): SignatureLocation[] {
  const text = pdf.toString('latin1');
  const found: SignatureLocation[] = [];
  for (const match of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const byteRange = match.slice(1, 5).map(Number) as [number, number, number, number];
    const [, start, end] = byteRange;
    if (start >= end || end > pdf.length || pdf[start] !== 0x3c || pdf[end - 1] !== 0x3e) continue;
    const hex = text.slice(start + 1, end - 1);
    if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) continue;
    const objectStart = text.lastIndexOf(' obj', match.index);
    const objectEnd = text.indexOf('endobj', match.index);
    const dictionary = text.slice(objectStart, objectEnd);
    const m = /\/M\s*\(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(dictionary);
    found.push({
      byteRange,
      contents: Buffer.from(hex, 'hex'),
      documentTimestamp: /\/Type\s*\/DocTimeStamp|\/SubFilter\s*\/ETSI\.RFC3161/.test(dictionary),
      claimedTime: m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : null,
    });
  }
  return found;
}

/** The bytes a byte range covers. */
export function coveredBytes(pdf: Buffer, [a, b, c, d]: SignatureLocation['byteRange']): Buffer {
  return Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
}

/** Checks a document timestamp's token imprint against the bytes it covers (its CMS signature is the TSA's). */
export function documentTimestampMatches(pdf: Buffer, location: SignatureLocation): boolean {
  try {
    const der = location.contents;
    const token = pkijs.ContentInfo.fromBER(der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength) as ArrayBuffer);
    const info = tstInfoOf(token);
    const expected = createHash('sha256').update(coveredBytes(pdf, location.byteRange)).digest();
    return Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView).equals(expected);
  } catch {
    return false;
  }
}

function objects(text: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const match of text.matchAll(/(?:^|[\r\n])(\d+)\s+0\s+obj\b([\s\S]*?)endobj/g)) found.set(Number(match[1]), match[2]);
  return found;
}

const normalise = (dictionary: string) => dictionary.replace(/\s+/g, ' ').trim();

/**
 * True when what was appended after the seal's revision is long-term-validation data only (PAdES B-LT and
 * B-LTA): new objects, the catalog again with a `/DSS` added and nothing else changed, and the AcroForm again
 * with fields only added. Any other redefined object (a page, its contents, a font) is a modification.
 */
/** True when the bytes after `sealEnd` are whole incremental updates: objects, xref, trailer, `%%EOF`. */
export function appendedIsRevisions(pdf: Buffer, sealEnd: number): boolean {
  const after = pdf.subarray(sealEnd).toString('latin1');
  const rest = after
    .replace(/(?:^|[\r\n])\d+\s+0\s+obj\b[\s\S]*?endobj/g, '')
    .replace(/xref[\s\S]*?trailer\s*<<[\s\S]*?>>\s*startxref\s*\d+\s*%%EOF/g, '');
  return /startxref/.test(after) && /^\s*$/.test(rest);
}

export function appendedIsValidationDataOnly(pdf: Buffer, sealEnd: number): boolean {
  const text = pdf.toString('latin1');
  const before = objects(text.slice(0, sealEnd));
  const after = objects(text.slice(sealEnd));
  for (const [number, body] of after) {
    const old = before.get(number);
    if (old === undefined) {
      // A new object may not be a page or page tree: new pages would need the page tree redefined anyway.
      if (/\/Type\s*\/Pages?\b/.test(body)) return false;
      continue;
    }
    if (/\/Type\s*\/Catalog\b/.test(old)) {
      if (normalise(body.replace(/\/DSS\s+\d+\s+0\s+R/, '')) !== normalise(old.replace(/\/DSS\s+\d+\s+0\s+R/, ''))) return false;
      continue;
    }
    if (/\/Type\s*\/AcroForm\b/.test(old)) {
      const fields = (dictionary: string) => /\/Fields\s*\[([^\]]*)\]/.exec(dictionary)?.[1].trim().split(/\s+/).join(' ') ?? '';
      const strip = (dictionary: string) => normalise(dictionary.replace(/\/Fields\s*\[[^\]]*\]/, ''));
      if (strip(body) !== strip(old) || !fields(body).startsWith(fields(old))) return false;
      continue;
    }
    return false;
  }
  return true;
}
