/**
 * A minimal RFC 5322 / MIME reader for the tests: unfolds headers, decodes RFC 2047 encoded words, walks
 * multipart bodies and decodes the first text/plain part (and the first text/html one) (7bit, 8bit, quoted-printable, base64). Written
 * here so that the tests check nodemailer's output with a parser that is not nodemailer's own.
 */
export interface ParsedMessage {
  /** Header values by lower-case name, unfolded and decoded, in order of appearance. */
  headers: Map<string, string[]>;
  to: string;
  from: string;
  subject: string;
  text: string;
  /** The first text/html part, decoded; '' when the message has none. */
  html: string;
}

export function parseMessage(raw: Buffer | string): ParsedMessage {
  const part = parsePart(Buffer.isBuffer(raw) ? raw.toString('latin1') : Buffer.from(raw, 'utf8').toString('latin1'));
  const header = (name: string) => part.headers.get(name)?.[0] ?? '';
  return {
    headers: part.headers,
    to: header('to'),
    from: header('from'),
    subject: header('subject'),
    text: findText(part) ?? '',
    html: findText(part, 'text/html') ?? '',
  };
}

/** A MIME part; `body` is a latin1 string, one char per byte, so binary content survives. */
interface Part {
  headers: Map<string, string[]>;
  body: string;
}

function parsePart(source: string): Part {
  const split = /\r?\n\r?\n/.exec(source);
  const head = split ? source.slice(0, split.index) : source;
  const body = split ? source.slice(split.index + split[0].length) : '';
  const headers = new Map<string, string[]>();
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = decodeHeaderValue(line.slice(colon + 1).trim());
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return { headers, body };
}

function findText(part: Part, wanted = 'text/plain'): string | undefined {
  const { type, params } = parseContentType(part.headers.get('content-type')?.[0] ?? 'text/plain');
  const disposition = (part.headers.get('content-disposition')?.[0] ?? '').toLowerCase();
  if (type.startsWith('multipart/')) {
    if (!params.boundary) throw new Error('multipart part without a boundary');
    for (const child of splitMultipart(part.body, params.boundary)) {
      const text = findText(parsePart(child), wanted);
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (type !== wanted || disposition.startsWith('attachment')) return undefined;
  const encoding = (part.headers.get('content-transfer-encoding')?.[0] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(part.body)
        : Buffer.from(part.body, 'latin1');
  return new TextDecoder(params.charset ?? 'us-ascii').decode(bytes);
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  const delimiter = `--${boundary}`;
  let current: string[] | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (line.trimEnd() === `${delimiter}--`) break;
    if (line.trimEnd() === delimiter) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
    } else if (current) {
      current.push(line);
    }
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

function parseContentType(value: string): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const item of rest) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    let paramValue = item.slice(eq + 1).trim();
    if (paramValue.startsWith('"') && paramValue.endsWith('"')) paramValue = paramValue.slice(1, -1);
    params[item.slice(0, eq).trim().toLowerCase()] = paramValue;
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Quoted-printable (RFC 2045 6.7) to bytes: soft line breaks removed, `=XX` decoded. */
function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * Decodes RFC 2047 encoded words; the white space between two adjacent encoded words is dropped, and the
 * bytes of adjacent words in one charset are joined before decoding. Plain text is latin1 on input (one
 * char per byte) and decoded as UTF-8 (RFC 6532 headers).
 */
function decodeHeaderValue(value: string): string {
  let out = '';
  let pending: { charset: string; bytes: Buffer[] } | undefined;
  const flush = () => {
    if (pending) out += new TextDecoder(pending.charset).decode(Buffer.concat(pending.bytes));
    pending = undefined;
  };
  let last = 0;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const between = value.slice(last, match.index);
    if (!(pending && /^[ \t]*$/.test(between))) {
      flush();
      out += Buffer.from(between, 'latin1').toString('utf8');
    }
    const charset = (match[1] ?? '').split('*')[0]!.toLowerCase();
    const text = match[3] ?? '';
    const bytes =
      (match[2] ?? '').toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text.replace(/_/g, ' '));
    if (pending && pending.charset !== charset) flush();
    pending ??= { charset, bytes: [] };
    pending.bytes.push(bytes);
    last = match.index + match[0].length;
  }
  flush();
  return out + Buffer.from(value.slice(last), 'latin1').toString('utf8');
}
