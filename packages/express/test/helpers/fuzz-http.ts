import { oddString, type Rng } from './fuzz-gen';

/**
 * Seeded generators of the HTTP parts of a hostile request: path parameters, query strings, headers,
 * multipart and binary bodies.
 */

/** Percent-encodes, keeping an unpaired surrogate as the (invalid) UTF-8 bytes a careless client sends. */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

/** A path parameter that is not the real one: bad percent-encoding, unknown, overlong, dots or odd. */
export function fuzzParam(r: Rng, name: string): string {
  switch (r.int(10)) {
    case 0: return r.pick(['%ff', '%', '%zz', '%ED%A0%80', '%C0%AF', '%E0%80', 'a%2', '%F4%90%80%80']);
    case 1: return `${r.pick(['frm_', 'team_', 'rsp_', 'tm_', 'inv_', 'dlv_', 'sess_', 'doc_', 'gen_', 'nv_', ''])}${r.word(20)}`;
    case 2: return 'a'.repeat(r.pick([300, 2000, 6000]));
    case 3: return encode(oddString(r).slice(0, 300)) || 'x';
    case 4: return r.pick(['%00', 'a%00b', '%0a', '%20', '%2F', '%252e', '%5C', '%2e%2e', '..%2F..%2Fetc']);
    case 5: return r.pick(['0', '-1', '1e999', 'null', 'undefined', 'NaN', '[]', '{}', '99999999999999999999', '1.5', '0x10', 'Infinity']);
    case 6: return name === 'token' ? 'f'.repeat(64) : r.pick(['%C3%A9', '%F0%9F%98%80', 'caf%C3%A9', '%E2%80%AE']);
    case 7: return r.pick(['.', '..', '...', '.%2e', 'a.b', '.json', '~']);
    case 8: return r.pick(['constructor', '__proto__', 'toString', 'hasOwnProperty']);
    default: return encodeURIComponent(r.word(40));
  }
}

const COMMON_QUERY = ['page', 'per_page', 'search', 'status', 'format', 'since', 'until', 'completed', 'question_id', 'delete_signed_contracts'];

/** A query string over the route's own names and common ones: repeated keys, arrays, objects, odd numbers and encodings. */
export function fuzzQuery(r: Rng, names: readonly string[] = []): string {
  const k = () => (names.length && r.chance(0.6) ? r.pick(names) : r.pick([...COMMON_QUERY, r.word()]));
  const parts: string[] = [];
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const key = k();
    switch (r.int(10)) {
      case 0: parts.push(`${key}=a`, `${key}=b`); break;
      case 1: parts.push(`${key}[]=1`, `${key}[]=x`); break;
      case 2: parts.push(`${key}[a]=1`, `${key}[b][c]=2`); break;
      case 3: parts.push(`${key}=${r.pick(['1e308', '1e999', '99999999999999999999999', '-5', '-1', '0', 'NaN', 'Infinity', '0x10', '1.5', '-0', '+1', '%201'])}`); break;
      case 4: parts.push(`${key}=${r.pick(['%ff', '%', '%zz', '%00', '%ED%A0%80', '%E2%80%AE'])}`); break;
      case 5: parts.push(`${key}=${'9'.repeat(r.pick([50, 2000]))}`); break;
      case 6: parts.push(`${key}=${r.pick(['true', 'false', 'maybe', '', '2026-13-45', '2026-01-01T25:00:00Z', 'mp3', 'wav', 'ulaw_8000', 'active', 'all', 'stock', 'mine'])}`); break;
      case 7: parts.push(key); break;
      case 8: parts.push(`${key}=${'x'.repeat(r.pick([300, 5000]))}`); break;
      default: parts.push(`${key}=${encode(oddString(r).slice(0, 200))}`);
    }
  }
  return `?${parts.join('&')}`;
}

/**
 * Hostile request headers (sent byte for byte, so non-ASCII arrives as UTF-8): idempotency keys too long
 * or in unicode, odd Accept and Range values, junk access tokens, repeated headers.
 */
export function fuzzHeaders(r: Rng, path: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) {
    switch (r.int(7)) {
      case 0:
        out.push(['Idempotency-Key', r.pick(['k'.repeat(r.pick([256, 257, 5000])), 'ключ-😀', '\u202eabc', ' ', '', 'a,b', r.word(16)])]);
        if (r.chance(0.3)) out.push(['Idempotency-Key', 'second']);
        break;
      case 1:
        out.push(['Accept', r.pick(['audio/whatever', 'audio/*', 'audio/mpeg;q=abc', 'audio/wav, audio/mpeg;q=0.5', 'application/pdf', 'text/csv', '*/*;q=0', 'x'.repeat(3000), 'audio/ogg; codecs=opus', 'audio/basic'])]);
        break;
      case 2:
        out.push(['X-Access-Token', r.pick(['junk', 'a'.repeat(r.pick([100, 9000])), 'v1.' + 'A'.repeat(40), '.', 'Ω≈ç√', '%00', 'eyJhbGciOiJub25lIn0.e30.'])]);
        break;
      case 3:
        out.push(['Range', r.pick(['bytes=0-0', 'bytes=abc', 'bytes=999999999-', 'bytes=-1', 'bytes=5-2', 'bytes=0-1,2-3,4-5', 'bytes=' + '0-1,'.repeat(500) + '0-1', 'items=0-1', 'bytes=-', 'bytes=18446744073709551616-'])]);
        if (r.chance(0.3)) out.push(['If-Range', r.pick(['"x"', 'Wed, 21 Oct 2015 07:28:00 GMT', 'junk'])]);
        break;
      case 4:
        out.push([r.pick(['X-Resume-Token', 'If-None-Match', 'If-Modified-Since', 'X-Forwarded-For', 'Origin', 'User-Agent']), r.pick(['junk', 'x'.repeat(4000), 'Ω', '*', 'null', '0'])]);
        break;
      case 5:
        out.push(['Content-Language', r.pick(['xx', 'ар', '*'])]);
        break;
      default:
        if (path.includes('voice')) out.push(['Accept', r.pick(['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/x-mulaw', 'audio/whatever'])]);
        else out.push(['Accept-Language', r.pick(['*', 'zz-ZZ', 'x'.repeat(500)])]);
    }
  }
  return out;
}

/** A multipart body for the upload route: truncated, without boundary, many parts, odd file names. */
export function fuzzMultipart(r: Rng): { body: string; boundary: string; label: string } {
  const b = 'X' + r.word(10);
  const part = (name: string, filename: string, data = 'hi', type = 'text/plain') =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${data}\r\n`;
  const end = `--${b}--\r\n`;
  switch (r.int(10)) {
    case 0: return { label: 'truncated', boundary: b, body: part('file', 'a.txt').slice(0, r.int(80)) };
    case 1: return { label: 'no closing boundary', boundary: b, body: part('file', 'a.txt') };
    case 2: return { label: 'no boundary parameter', boundary: '', body: part('file', 'a.txt') + end };
    case 3: return { label: 'many parts', boundary: b, body: Array.from({ length: 25 + r.int(50) }, (_, i) => part(`f${i}`, `${i}.txt`)).join('') + end };
    case 4: {
      const name = r.pick(['a\u0001.txt', 'a\u007f.txt', 'a\u0000.txt', 'a\nb.txt', 'x'.repeat(5000) + '.txt', '日'.repeat(199), '', '..', '/etc/passwd', 'C:\\x\\y.txt', '\u202etxt.exe']);
      return { label: `odd filename ${JSON.stringify(name.slice(0, 20))}`, boundary: b, body: part('file', name, 'hi', r.pick(['text/html', 'text/plain'])) + end };
    }
    case 5: return { label: 'two files', boundary: b, body: part('file', 'a.txt') + part('file', 'b.txt') + end };
    case 6: return { label: 'wrong part name', boundary: b, body: part('other', 'a.txt') + end };
    case 7: return { label: 'boundary mismatch', boundary: b, body: part('file', 'a.txt').replaceAll(b, 'Y') + end };
    case 8: return { label: 'field, no file', boundary: b, body: `--${b}\r\nContent-Disposition: form-data; name="question_id"\r\n\r\n${'q'.repeat(r.pick([5, 5000]))}\r\n${end}` };
    default: return { label: 'refused type', boundary: b, body: part('file', 'a.svg', '<svg/>', 'image/svg+xml') + end };
  }
}

/** A body declared as `application/pdf` that is not a (valid, sealed) PDF: junk, truncated, empty, a lie. */
export function junkPdf(r: Rng, real: Buffer | null): { body: Buffer; label: string } {
  switch (r.int(7)) {
    case 0: return { label: 'empty pdf', body: Buffer.alloc(0) };
    case 1: return { label: 'junk pdf', body: Buffer.from(Array.from({ length: 1 + r.int(4000) }, () => r.int(256))) };
    case 2: return { label: 'header-only pdf', body: Buffer.from('%PDF-1.7\n%%EOF\n') };
    case 3: return { label: 'lying byte range', body: Buffer.from('%PDF-1.4\n/ByteRange [0 99999999 99999999 5]\n/Contents <' + 'ab'.repeat(50) + '>\n%%EOF') };
    case 4: if (real) return { label: 'truncated sealed pdf', body: real.subarray(0, r.int(real.length)) };
      return { label: 'text as pdf', body: Buffer.from('hello') };
    case 5: if (real) {
        const copy = Buffer.from(real);
        for (let i = 0; i < 20; i++) copy[r.int(copy.length)] = r.int(256);
        return { label: 'flipped bytes of a sealed pdf', body: copy };
      }
      return { label: 'json as pdf', body: Buffer.from('{"pdf_base64":"x"}') };
    default: return { label: 'nested objects pdf', body: Buffer.from('%PDF-1.7\n' + '<<'.repeat(5000) + '>>'.repeat(5000) + '\n%%EOF') };
  }
}
