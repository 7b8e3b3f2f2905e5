/**
 * Just enough PDF reading to get the document-information entries this package writes, and the signature's
 * byte range: the trailer's `/Info` reference, that object, and literal strings (direct or indirect). Works on
 * the bytes as latin1 text; streams are never decoded. Not a general PDF parser.
 */

/** The value of `key` in the document information dictionary, or `null` when absent or unreadable. */
export function readInfoString(pdf: Buffer, key: string): string | null {
  const text = pdf.toString('latin1');
  const info = lastMatch(text, /\/Info\s+(\d+)\s+(\d+)\s+R/g);
  if (!info) return null;
  const dictionary = objectBody(text, Number(info[1]), Number(info[2]));
  if (dictionary === null) return null;
  const escapedKey = key.replace(/[^A-Za-z0-9]/g, '');
  const indirect = new RegExp(`/${escapedKey}\\s+(\\d+)\\s+(\\d+)\\s+R`).exec(dictionary);
  if (indirect) {
    const body = objectBody(text, Number(indirect[1]), Number(indirect[2]));
    return body === null ? null : literalString(body.trim());
  }
  const direct = new RegExp(`/${escapedKey}\\s*(\\([\\s\\S]*)`).exec(dictionary);
  return direct ? literalString(direct[1]) : null;
}

function lastMatch(text: string, pattern: RegExp): RegExpExecArray | null {
  let found: RegExpExecArray | null = null;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) found = match;
  return found;
}

/** The text between `N G obj` and `endobj` of the last definition of that object. */
function objectBody(text: string, number: number, generation: number): string | null {
  const match = lastMatch(text, new RegExp(`(?:^|[^0-9])${number}\\s+${generation}\\s+obj\\b([\\s\\S]*?)endobj`, 'g'));
  return match ? match[1] : null;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };

/** Decodes a PDF literal string `( ... )` at the start of `source` (PDF 32000-1, 7.3.4.2). */
export function literalString(source: string): string | null {
  if (!source.startsWith('(')) return null;
  let depth = 0;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1];
      if (next === undefined) return null;
      if (/[0-7]/.test(next)) {
        const digits = /^[0-7]{1,3}/.exec(source.slice(i + 1))![0];
        out += String.fromCharCode(parseInt(digits, 8) & 0xff);
        i += digits.length;
      } else if (next === '\r' || next === '\n') {
        i += next === '\r' && source[i + 2] === '\n' ? 2 : 1;
      } else {
        out += ESCAPES[next] ?? next;
        i += 1;
      }
      continue;
    }
    if (char === '(') {
      depth += 1;
      if (depth === 1) continue;
    } else if (char === ')') {
      depth -= 1;
      if (depth === 0) return decodeTextString(out);
    }
    out += char;
  }
  return null;
}

/** A text string is UTF-16BE after a byte-order mark, else PDFDocEncoding (read as latin1 here). */
function decodeTextString(bytes: string): string {
  if (bytes.startsWith('\u00fe\u00ff')) {
    const buffer = Buffer.from(bytes.slice(2), 'latin1');
    let out = '';
    for (let i = 0; i + 1 < buffer.length; i += 2) out += String.fromCharCode(buffer.readUInt16BE(i));
    return out;
  }
  return bytes;
}
