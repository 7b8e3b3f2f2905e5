/**
 * Seeded generators of malformed requests for the fuzz test: the same seed always gives the same
 * requests, so a failure printed with its seed can be replayed (`FUZZ_SEED=<n>`).
 */

/** mulberry32: small, fast, good enough to pick cases (not for anything secret). */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** A short random run of letters and digits. */
  word(len = 1 + this.int(12)): string {
    const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let s = '';
    for (let i = 0; i < len; i++) s += abc[this.int(abc.length)];
    return s;
  }
}

/** Strings that trip parsers and databases: control characters, lone surrogates, bidi, huge, NUL. */
export function oddString(r: Rng): string {
  switch (r.int(12)) {
    case 0: return '';
    case 1: return 'a\u0000b';
    case 2: return '\ud800';
    case 3: return '\udfff\ud800';
    case 4: return '\u202eevil\u202c';
    case 5: return '\ufeff' + r.word();
    case 6: return 'x'.repeat(1000 + r.int(20_000));
    case 7: return '😀'.repeat(1 + r.int(500));
    case 8: return '\u0001\u0002\u001f\u007f';
    case 9: return "'; DROP TABLE forms; --";
    case 10: return '<script>alert(1)</script>';
    default: return 'e\u0301\u200b\u00a0' + r.word();
  }
}

/** Any JSON value, shallow, of a random type (the "wrong type" of a field). */
export function oddValue(r: Rng): unknown {
  switch (r.int(11)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, -0.0]);
    case 3: return oddString(r);
    case 4: return [];
    case 5: return {};
    case 6: return [oddString(r), 1, null];
    case 7: return { [r.word()]: oddString(r) };
    case 8: return Array.from({ length: 1 + r.int(300) }, () => r.word());
    case 9: return [{}];
    default: return r.word();
  }
}

/** JSON text nested `depth` levels around a leaf (text, so building it cannot overflow our stack). */
export function deepJson(r: Rng, depth: number): string {
  const arrays = r.chance(0.5);
  return arrays ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Plausible bodies per route, so that mutations land on real fields. */
const TEMPLATES: Record<string, () => Record<string, unknown>> = {
  form: () => ({ title: 'T', questions: [{ type: 'short_text', title: 'Q', properties: {}, validations: {}, logic_jumps: [] }], variables: {}, quiz_settings: {}, start_logic_jumps: [] }),
  response: () => ({ answers: [{ question_id: 'q_x', value: 'v' }], completed: true, visitor_id: 'v1', started_at: '2026-01-01T00:00:00.000Z' }),
  team: () => ({ name: 'Team', email: 'a@example.com', role: 'viewer', primary_color: '#123456' }),
  webhooks: () => ({ url: 'https://example.com/h', webhooks: [{ url: 'https://example.com/h' }], response_ids: ['rsp_x'] }),
};

function mutate(r: Rng, body: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(body);
  const times = 1 + r.int(3);
  for (let i = 0; i < times; i++) {
    const k = r.pick(keys);
    const v = body[k];
    if (Array.isArray(v) && v.length && typeof v[0] === 'object' && r.chance(0.5)) {
      const inner = { ...(v[0] as Record<string, unknown>) };
      inner[r.pick(Object.keys(inner))] = oddValue(r);
      body[k] = [inner];
    } else {
      body[k] = oddValue(r);
    }
  }
  if (r.chance(0.2)) body[oddString(r).slice(0, 50) || 'unknown'] = oddValue(r);
  return body;
}

export interface FuzzBody {
  text: string;
  contentType?: string;
  contentEncoding?: string;
  label: string;
}

/** A malformed JSON body: invalid text, deep nesting, huge, wrong types, odd strings, wrong shape. */
export function fuzzBody(r: Rng, template: keyof typeof TEMPLATES | null): FuzzBody {
  const tpl = () => (template ? TEMPLATES[template]!() : TEMPLATES[r.pick(Object.keys(TEMPLATES))]!());
  const kind = r.int(12);
  switch (kind) {
    case 0:
      return { label: 'invalid JSON', text: r.pick(['{', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', 'undefined', '[1,2', '{"a":"\\x"}', '\u0000', '']) };
    case 1: {
      const depth = r.pick([33, 40, 100, 3000, 10_000]);
      const field = r.pick(['variables', 'quiz_settings', 'start_logic_jumps', 'answers', 'name', 'webhooks', 'response_ids']);
      return { label: `nested ${depth} in ${field}`, text: `{"title":"T","${field}":${deepJson(r, depth)}}` };
    }
    case 2:
      return { label: 'deep answer value', text: `{"answers":[{"question_id":"q_x","value":${deepJson(r, r.pick([33, 500, 10_000]))}}]}` };
    case 3:
      return { label: 'huge string', text: JSON.stringify({ ...tpl(), title: 'x'.repeat(r.pick([10_000, 100_000, 1_100_000])) }) };
    case 4:
      return { label: 'wrong top-level type', text: JSON.stringify(r.pick([[], [{}], 1, 'str', null, true, [tpl()]])) };
    case 5:
      return { label: 'lone surrogate escape', text: `{"title":"\\ud800","name":"\\udfff","answers":[{"question_id":"\\ud83d","value":"\\u0000"}]}` };
    case 6:
      return { label: 'declared gzip, not compressed', text: JSON.stringify(tpl()), contentEncoding: r.pick(['gzip', 'deflate', 'br', 'identity, gzip', 'zstd']) };
    case 7:
      return { label: 'odd content type', text: JSON.stringify(tpl()), contentType: r.pick(['text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', '']) };
    case 8:
      return { label: 'duplicate and proto keys', text: '{"title":"a","title":"b","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' };
    default:
      return { label: 'mutated fields', text: JSON.stringify(mutate(r, tpl())) };
  }
}

/** Percent-encodes, keeping an unpaired surrogate as the (invalid) UTF-8 bytes a careless client sends. */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

/** A path parameter that is not the real one: bad percent-encoding, unknown, overlong or odd. */
export function fuzzParam(r: Rng, name: string): string {
  switch (r.int(8)) {
    case 0: return r.pick(['%ff', '%', '%zz', '%ED%A0%80', '%C0%AF', '%E0%80', 'a%2', '%F4%90%80%80']);
    case 1: return `${r.pick(['frm_', 'team_', 'rsp_', 'tm_', 'inv_', 'dlv_', ''])}${r.word(20)}`;
    case 2: return 'a'.repeat(r.pick([300, 2000, 6000]));
    case 3: return encode(oddString(r).slice(0, 300)) || 'x';
    case 4: return r.pick(['%00', 'a%00b', '%0a', '%20', '%2F', '%252e']);
    case 5: return r.pick(['0', '-1', '1e999', 'null', 'undefined', 'NaN', '[]', '{}']);
    case 6: return name === 'token' ? 'f'.repeat(64) : r.pick(['%C3%A9', '%F0%9F%98%80', 'caf%C3%A9']);
    default: return encodeURIComponent(r.word(40));
  }
}

/** A query string: repeated keys, arrays, objects, huge and negative numbers, odd encodings. */
export function fuzzQuery(r: Rng): string {
  const k = () => r.pick(['page', 'per_page', 'search', 'team_id', 'published', 'since', 'until', 'completed', 'question_id', 'delete_signed_contracts', r.word()]);
  const parts: string[] = [];
  const n = r.int(5);
  for (let i = 0; i < n; i++) {
    const key = k();
    switch (r.int(9)) {
      case 0: parts.push(`${key}=1`, `${key}=2`); break;
      case 1: parts.push(`${key}[]=1`, `${key}[]=x`); break;
      case 2: parts.push(`${key}[a]=1`, `${key}[b][c]=2`); break;
      case 3: parts.push(`${key}=${r.pick(['1e308', '99999999999999999999999', '-5', '-1', '0', 'NaN', 'Infinity', '0x10', '1.5'])}`); break;
      case 4: parts.push(`${key}=${r.pick(['%ff', '%', '%zz', '%00', '%ED%A0%80'])}`); break;
      case 5: parts.push(`${key}=${'9'.repeat(r.pick([50, 2000]))}`); break;
      case 6: parts.push(`${key}=${r.pick(['true', 'false', 'maybe', '', '2026-13-45', '2026-01-01T25:00:00Z'])}`); break;
      case 7: parts.push(key); break;
      default: parts.push(`${key}=${encode(oddString(r).slice(0, 200))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A multipart body for the upload route: truncated, without boundary, many parts, odd file names. */
export function fuzzMultipart(r: Rng): { body: string; boundary: string; label: string } {
  const b = 'X' + r.word(10);
  const part = (name: string, filename: string, data = 'hi', type = 'text/plain') =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${data}\r\n`;
  const end = `--${b}--\r\n`;
  switch (r.int(9)) {
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
    default: return { label: 'refused type', boundary: b, body: part('file', 'a.svg', '<svg/>', 'image/svg+xml') + end };
  }
}
