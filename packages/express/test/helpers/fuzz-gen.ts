/**
 * Seeded generators of malformed values and JSON bodies for the fuzz tests: the same seed always gives the
 * same requests, so a failure printed with its seed can be replayed (`FUZZ_SEED=<n>`).
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
  switch (r.int(16)) {
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
    case 11: return 'مرحبا \u200f\u061c שלום';
    case 12: return r.pick(['NaN', 'Infinity', '-Infinity', '1e999', '0x1F', '٣', '１２', '  7  ', '-0']);
    case 13: return '\u0000';
    case 14: return 'a\u0301'.repeat(2000);
    default: return 'e\u0301\u200b\u00a0' + r.word();
  }
}

/**
 * Number literals that JSON.stringify cannot write (it makes `null` of them): kept in the value as a marker
 * and put back as raw text by `toJsonText`, so a body can carry `1e999` (Infinity once parsed) or `-0`.
 */
const RAW_NUMBERS = ['1e999', '-1e999', '123456789012345678901234567890', '1e-400', '-0', '0.1e1', '9007199254740993', '1E+308'];
const rawMarker = (i: number) => `\u{f8ff}num${i}\u{f8ff}`;

export function toJsonText(value: unknown): string {
  let text = JSON.stringify(value) ?? 'null';
  RAW_NUMBERS.forEach((n, i) => (text = text.replaceAll(JSON.stringify(rawMarker(i)), n)));
  return text;
}

/** Any JSON value, shallow, of a random type (the "wrong type" of a field). */
export function oddValue(r: Rng): unknown {
  switch (r.int(14)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, -(2 ** 31), 2 ** 32, 1.7976931348623157e308]);
    case 3: return oddString(r);
    case 4: return [];
    case 5: return {};
    case 6: return [oddString(r), 1, null];
    case 7: return { [r.word()]: oddString(r) };
    case 8: return Array.from({ length: 1 + r.int(300) }, () => r.word());
    case 9: return [{}];
    case 10: return rawMarker(r.int(RAW_NUMBERS.length));
    case 11: return r.pick(['NaN', 'Infinity', '1e999', '-1', '0', 'true', 'null', '[]', '{}']);
    case 12: return Array.from({ length: 2 + r.int(5) }, () => ({ a: r.word() }));
    default: return r.word();
  }
}

/** JSON text nested `depth` levels around a leaf (text, so building it cannot overflow our stack). */
export function deepJson(r: Rng, depth: number): string {
  const arrays = r.chance(0.5);
  return arrays ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

type Json = unknown;
type Container = Record<string, Json> | Json[];

/** Every container in `v` with its keys, so a mutation can land at any depth. */
function containers(v: Json, out: Container[] = [], depth = 0): Container[] {
  if (v === null || typeof v !== 'object' || depth > 12) return out;
  out.push(v as Container);
  for (const x of Object.values(v as object)) containers(x, out, depth + 1);
  return out;
}

/** One hostile change somewhere in `body`: a wrong type, a missing or extra field, an array for an object. */
function mutateOnce(r: Rng, body: Json): Json {
  const all = containers(body);
  if (!all.length) return oddValue(r);
  const c = r.pick(all);
  const keys = Object.keys(c);
  const action = r.int(6);
  if (action === 0 || !keys.length) {
    // An extra field: unknown name, odd name, or the prototype's.
    const name = r.pick([r.word(), oddString(r).slice(0, 60) || 'x', '__proto__', 'constructor', 'id', 'created_at', 'user_id']);
    if (Array.isArray(c)) c.push(oddValue(r));
    else c[name] = oddValue(r);
    return body;
  }
  const k = r.pick(keys);
  const rec = c as Record<string, Json>;
  const old = rec[k];
  switch (action) {
    case 1: // missing field
      if (Array.isArray(c)) c.splice(Number(k), 1);
      else delete rec[k];
      break;
    case 2: // an array where an object (or anything) is expected, or the reverse
      rec[k] = Array.isArray(old) ? Object.fromEntries(old.map((x, i) => [String(i), x])) : [old];
      break;
    case 3: // the same type, hostile content
      rec[k] = typeof old === 'string' ? oddString(r) : typeof old === 'number' ? rawMarker(r.int(RAW_NUMBERS.length)) : oddValue(r);
      break;
    default:
      rec[k] = oddValue(r);
  }
  return body;
}

export function mutate(r: Rng, body: Json): Json {
  let out = body;
  const times = 1 + r.int(3);
  for (let i = 0; i < times; i++) out = mutateOnce(r, out);
  return out;
}

export interface FuzzBody {
  text: string;
  contentType?: string;
  contentEncoding?: string;
  label: string;
}

/**
 * A malformed JSON body built from `template` (a valid-looking body of the route): invalid text, deep
 * nesting, huge, wrong types, odd strings, wrong shape, wrong content type.
 */
export function fuzzBody(r: Rng, template: () => Json): FuzzBody {
  const field = () => {
    const t = template();
    const keys = t && typeof t === 'object' && !Array.isArray(t) ? Object.keys(t) : [];
    return keys.length ? r.pick(keys) : r.pick(['title', 'answers', 'text', 'name']);
  };
  switch (r.int(14)) {
    case 0:
      return { label: 'invalid JSON', text: r.pick(['{', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', 'undefined', '[1,2', '{"a":"\\x"}', '\u0000', '', '{"a":1}{"b":2}', '\ufeff{}']) };
    case 1: {
      const depth = r.pick([31, 33, 40, 100, 3000, 10_000]);
      return { label: `nested ${depth}`, text: `{${JSON.stringify(field())}:${deepJson(r, depth)}}` };
    }
    case 2: {
      const t = template() as Record<string, Json>;
      return { label: 'huge string', text: toJsonText({ ...(typeof t === 'object' && t ? t : {}), [field()]: 'x'.repeat(r.pick([10_000, 100_000, 1_100_000])) }) };
    }
    case 3:
      return { label: 'wrong top-level type', text: toJsonText(r.pick([[], [{}], 1, 'str', null, true, [template()], rawMarker(0)])) };
    case 4:
      return { label: 'unicode escapes', text: `{${JSON.stringify(field())}:"${r.pick(['\\ud800', '\\udfff', '\\ud83d\\u0041', '\\u0000', '\\u202e\\u202d', '\\uffff\\ufffe'])}"}` };
    case 5:
      return { label: 'declared gzip, not compressed', text: toJsonText(template()), contentEncoding: r.pick(['gzip', 'deflate', 'br', 'identity, gzip', 'zstd']) };
    case 6:
      return {
        label: 'odd content type',
        text: toJsonText(template()),
        contentType: r.pick(['text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', '', 'application/pdf', 'application/xml', 'application/merge-patch+json', 'application/json;;', '*/*']),
      };
    case 7:
      return { label: 'duplicate and proto keys', text: '{"title":"a","title":"b","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' };
    case 8: {
      const ct = r.pick(['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=zz']);
      const text = ct.startsWith('multipart') ? '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--zz' : ct.endsWith('urlencoded') ? 'a=1&a=2&b[c]=%ff' : 'hello';
      return { label: `not JSON (${ct})`, text, contentType: ct };
    }
    default:
      return { label: 'mutated fields', text: toJsonText(mutate(r, template())) };
  }
}

/** Every string, number or boolean inside `v`, with the container that holds it. */
function leaves(v: Json, out: Array<[Container, string]> = [], depth = 0): Array<[Container, string]> {
  if (v === null || typeof v !== 'object' || depth > 12) return out;
  for (const [k, x] of Object.entries(v as object)) {
    if (x !== null && typeof x === 'object') leaves(x, out, depth + 1);
    else out.push([v as Container, k]);
  }
  return out;
}

/** Short strings that pass type and length checks but trip storage, rendering and comparisons. */
const HOSTILE_SHORT = ['\ud800', 'a\udfffb', '\u202eabc\u202c', '😀', 'e\u0301', '   ', `O'Brien"; --`, '\\', '%00', '${x}', '{{x}}', '\ufeffx', 'ﷺ', 'İı', '\u2028\u2029', '０', 'NaN', '<b>x</b>', '=cmd|"/c calc"!A1'];

/**
 * A body that is valid but for one leaf, which keeps its type and carries hostile content (or, at times,
 * the template untouched): these get past the schemas to the services and the database.
 */
export function deepBody(r: Rng, template: () => Json): FuzzBody {
  const body = template();
  if (r.chance(0.15)) return { label: 'template', text: toJsonText(body) };
  const all = leaves(body);
  if (!all.length) return { label: 'template (no leaves)', text: toJsonText(body) };
  const [c, k] = r.pick(all);
  const rec = c as Record<string, Json>;
  const old = rec[k];
  if (typeof old === 'string') rec[k] = r.pick(HOSTILE_SHORT);
  else if (typeof old === 'number') rec[k] = r.chance(0.3) ? rawMarker(r.int(RAW_NUMBERS.length)) : r.pick([0, -1, 1e21, 2 ** 53 + 1, 0.1, 2 ** 31, 1e-7]);
  else rec[k] = r.pick([1, 'true', 0]);
  return { label: `hostile leaf ${k}`, text: toJsonText(body) };
}
