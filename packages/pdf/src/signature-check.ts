import { inflateSync } from 'node:zlib';
import type { SignatureInput } from '@formloom/core';

/** Limits on what a signature may be; see docs/signing.md. */
export const SIGNATURE_LIMITS = {
  /** Characters of a typed signature. */
  typedMaxLength: 200,
  /** Bytes of a drawn signature's PNG, after base64 decoding. */
  drawnMaxBytes: 512 * 1024,
  /** Pixels of a drawn signature's width and height. */
  drawnMaxSide: 2000,
} as const;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The data URL as a signing pad writes it; white space (MIME line breaks) only inside the base64. */
const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/\s]*(?:=\s*){0,2})$/;

/** A drawn signature that passed the checks: its PNG bytes and size. */
export interface DrawnSignature {
  png: Buffer;
  width: number;
  height: number;
}

/** Raised by rendering when a signature cannot be drawn; `message` says why. */
export class SignatureImageError extends Error {
  override name = 'SignatureImageError';
}

/**
 * Decodes and checks a drawn signature: a base64 PNG data URL within the size limits, with a PNG signature, an
 * IHDR chunk first, sane dimensions and image data that inflates to exactly its size. Throws
 * `SignatureImageError`.
 */
export function decodeDrawnSignature(value: string): DrawnSignature {
  const maxBase64 = Math.ceil(SIGNATURE_LIMITS.drawnMaxBytes / 3) * 4 + 'data:image/png;base64,'.length;
  if (typeof value !== 'string' || value.length > maxBase64) {
    throw new SignatureImageError(`a drawn signature must be at most ${SIGNATURE_LIMITS.drawnMaxBytes} bytes`);
  }
  const match = DATA_URL.exec(value);
  if (!match) throw new SignatureImageError('a drawn signature must be a data URL of the form data:image/png;base64,...');
  const png = Buffer.from(match[1].replace(/\s+/g, ''), 'base64');
  if (png.length > SIGNATURE_LIMITS.drawnMaxBytes) {
    throw new SignatureImageError(`a drawn signature must be at most ${SIGNATURE_LIMITS.drawnMaxBytes} bytes`);
  }
  if (png.length < 8 + 25 + 12 || !png.subarray(0, 8).equals(PNG_MAGIC)) {
    throw new SignatureImageError('a drawn signature must be a PNG image');
  }
  if (png.readUInt32BE(8) !== 13 || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new SignatureImageError('a drawn signature must be a PNG image (no IHDR chunk)');
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const max = SIGNATURE_LIMITS.drawnMaxSide;
  if (width === 0 || height === 0 || width > max || height > max) {
    throw new SignatureImageError(`a drawn signature must be between 1 and ${max} pixels wide and high`);
  }
  checkPixels(png, width, height);
  return { png, width, height };
}

/** Channels per colour type, and the bit depths each allows (PNG specification, IHDR). */
const COLOR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};

/**
 * Decodes the image data the way pdfkit's PNG reader will, so that reader never meets a broken stream: it
 * inflates asynchronously and throws from a callback, which would take the whole process down.
 */
function checkPixels(png: Buffer, width: number, height: number): void {
  const [depth, colorType, compression, filter, interlace] = png.subarray(24, 29);
  const kind = COLOR_TYPES[colorType];
  if (!kind || !kind.depths.includes(depth) || compression !== 0 || filter !== 0 || interlace !== 0) {
    throw new SignatureImageError('a drawn signature must be a non-interlaced PNG of a standard colour type');
  }
  const idat: Buffer[] = [];
  let sawPalette = false;
  let sawEnd = false;
  let offset = 8;
  while (offset + 12 <= png.length && !sawEnd) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const next = offset + 12 + length;
    if (next > png.length) break;
    if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
    if (type === 'PLTE') sawPalette = true;
    if (type === 'IEND') sawEnd = true;
    offset = next;
  }
  if (!sawEnd || idat.length === 0) throw new SignatureImageError('a drawn signature must be a complete PNG image');
  if (colorType === 3 && !sawPalette) throw new SignatureImageError('a drawn signature PNG with a palette must include it');
  const rowBytes = Math.ceil((width * kind.channels * depth) / 8);
  const expected = height * (rowBytes + 1);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    throw new SignatureImageError('a drawn signature PNG has corrupt image data');
  }
  if (pixels.length !== expected) throw new SignatureImageError('a drawn signature PNG has image data of the wrong size');
  for (let row = 0; row < height; row++) {
    if (pixels[row * (rowBytes + 1)] > 4) throw new SignatureImageError('a drawn signature PNG has an invalid row filter');
  }
}

/** Why a signature cannot go into a document, or `null` when it can. */
export function checkSignature(signature: SignatureInput): string | null {
  if (!signature || typeof signature !== 'object') return 'a signature must be an object with type and value';
  if (signature.type === 'typed') {
    if (typeof signature.value !== 'string' || signature.value.trim() === '') return 'a typed signature must not be empty';
    if ([...signature.value].length > SIGNATURE_LIMITS.typedMaxLength) {
      return `a typed signature must be at most ${SIGNATURE_LIMITS.typedMaxLength} characters`;
    }
    return null;
  }
  if (signature.type === 'drawn') {
    try {
      decodeDrawnSignature(signature.value);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }
  return 'a signature type must be "typed" or "drawn"';
}
