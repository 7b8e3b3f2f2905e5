/**
 * Reading JSON text in place, byte by byte, without decoding it: what `CsvPageWriter` needs to find
 * values and their ends in stored answers. Positions are byte offsets; `end` bounds every scan.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const CR = 0x0d;
export const LF = 0x0a;

const isSpace = (c: number) => c === 0x20 || c === LF || c === CR || c === 0x09;

/** Returned by a scan that met something other than the JSON it expects. */
export const MALFORMED = -1;

/** Index of the closing quote of the JSON string whose opening quote is at `i`, or MALFORMED. */
export function closingQuote(b: Buffer, i: number, end: number): number {
  for (i++; i < end; ) {
    const c = b[i]!;
    if (c === QUOTE) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
  return MALFORMED;
}

/** Index just past the JSON value starting at `i`, or MALFORMED. */
export function valueEnd(b: Buffer, i: number, end: number): number {
  const first = b[i];
  if (first === QUOTE) {
    const q = closingQuote(b, i, end);
    return q === MALFORMED ? MALFORMED : q + 1;
  }
  if (first === LBRACE || first === LBRACKET) {
    let depth = 0;
    while (i < end) {
      const c = b[i]!;
      if (c === QUOTE) {
        i = closingQuote(b, i, end);
        if (i === MALFORMED) return MALFORMED;
      } else if (c === LBRACE || c === LBRACKET) depth++;
      else if ((c === RBRACE || c === RBRACKET) && --depth === 0) return i + 1;
      i++;
    }
    return MALFORMED;
  }
  while (i < end) {
    const c = b[i]!;
    if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c)) break;
    i++;
  }
  return i;
}

/** Whether `b` holds `bytes` at `i`. */
export function bytesAt(b: Buffer, i: number, bytes: Uint8Array): boolean {
  if (i + bytes.length > b.length) return false;
  for (let k = 0; k < bytes.length; k++) if (b[i + k] !== bytes[k]) return false;
  return true;
}

/** Bytes to find at a position, compared four at a time: most of an answer's bytes are its known prefix. */
export class Pattern {
  readonly words: Uint32Array;
  constructor(readonly bytes: Buffer) {
    this.words = new Uint32Array(bytes.length >> 2);
    for (let k = 0; k < this.words.length; k++) this.words[k] = bytes.readUInt32LE(4 * k);
  }
  /** Whether `b` (viewed as `dv`) holds these bytes at `i`. */
  at(b: Buffer, dv: DataView, i: number): boolean {
    const bytes = this.bytes;
    if (i + bytes.length > b.length) return false;
    const words = this.words;
    for (let k = 0; k < words.length; k++) if (dv.getUint32(i + 4 * k, true) !== words[k]) return false;
    for (let k = words.length << 2; k < bytes.length; k++) if (b[i + k] !== bytes[k]) return false;
    return true;
  }
}
