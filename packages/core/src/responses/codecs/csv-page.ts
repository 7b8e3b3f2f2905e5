import { type CsvColumns, csvField, type CsvLayout, placeAnswer } from './csv';
import type { Answer } from '../../domain/types';
import {
  BACKSLASH,
  bytesAt,
  closingQuote,
  COMMA,
  CR,
  LBRACE,
  LBRACKET,
  LF,
  MALFORMED,
  Pattern,
  QUOTE,
  RBRACE,
  RBRACKET,
  valueEnd,
} from './json-bytes';

/**
 * The CSV of a packed export page (see `ResponseRepository.exportPages`), written byte to byte.
 *
 * Why not `JSON.parse` each response and format objects: over 100,000 responses that makes a million
 * answer objects and their strings, and parsing plus garbage collection cost three times the database's
 * own time to produce the rows. Here the answers' JSON is walked in place: strings without escapes,
 * numbers, booleans and null go straight from the stored bytes to the output (their CSV is their JSON
 * text, give or take quoting), and only what needs real decoding (escaped strings, arrays, objects) is
 * handed to `JSON.parse` and `csvField`, so every cell reads exactly as `csvField` would write it. A
 * response whose answers are not the JSON expected is formatted from `JSON.parse` of the whole, and
 * fails as it would.
 */

const US = 0x1f; // ends each field of a packed response
const RS = 0x1e; // ends a packed response
const APOSTROPHE = 0x27;

/** First bytes that make a spreadsheet run a cell as a formula (tab and CR only occur escaped in JSON). */
const isFormulaStart = (c: number) => c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === CR;

const EMPTY = 0;
/** The inside of a JSON string without escapes or commas, or a packed field: copied as is. */
const STRING = 1;
/** Like STRING, with a comma: copied inside quotes. */
const STRING_COMMA = 2;
/** A JSON string with escapes: decoded, then formatted by `csvField`. */
const STRING_ESCAPED = 3;
/** A JSON number, true or false: its text is its CSV (JSON.stringify and String agree on numbers). */
const SCALAR = 4;
/** A decoded value, formatted by `csvField`. */
const DECODED = 5;

/**
 * Growable output buffer, reused from page to page: each page's CSV is then copied out at its exact size.
 * Buffers live outside the JavaScript heap, and every fresh megabyte of them brings V8's collector closer
 * to a full collection; a scratch buffer per page made an export run several more of them.
 */
class Output {
  buf: Buffer;
  n = 0;
  /** What the current row reserved: text written into it must not eat the room of the cells after it. */
  private room = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(Math.max(size, 1024));
  }
  reserveRow(extra: number) {
    this.room = extra;
    this.reserve(extra);
  }
  reserve(extra: number) {
    if (this.n + extra <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.n + extra));
    this.buf.copy(bigger, 0, 0, this.n);
    this.buf = bigger;
  }
  /** Bytes [s, e) of `src`; the caller reserved room. */
  bytes(src: Buffer, s: number, e: number) {
    const out = this.buf;
    let n = this.n;
    // Cells are short: a loop beats the cost of a native call for each; a long one is copied by
    // TypedArray#set, which (unlike Buffer#copy) runs without leaving JavaScript.
    if (e - s < 64) for (let i = s; i < e; i++) out[n++] = src[i]!;
    else {
      out.set(new Uint8Array(src.buffer, src.byteOffset + s, e - s), n);
      n += e - s;
    }
    this.n = n;
  }
  text(s: string) {
    this.reserve(s.length * 3 + this.room);
    this.n += this.buf.write(s, this.n, 'utf8');
  }
}

/** How JSON.stringify writes an answer, which `readAnswers` expects exactly. */
const ANSWER_START = Buffer.from('{"question_id":"');
const VALUE_KEY = Buffer.from(',"value":');

/** Writes one page's rows; one instance per export, reused across pages. */
export class CsvPageWriter {
  private readonly width: number;
  private readonly kind: Uint8Array;
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly decoded: unknown[];
  /** Each question's answer as JSON.stringify starts it, `{"question_id":"<id>","value":`, in column order. */
  private readonly answerStarts: Pattern[] = [];
  private readonly questionPlace: CsvColumns[] = [];
  private readonly out = new Output(64 * 1024);
  /** The question expected next: answers are usually stored in the form's order. */
  private guess = 0;

  constructor(private readonly layout: CsvLayout) {
    this.width = layout.width;
    this.kind = new Uint8Array(layout.width);
    this.start = new Int32Array(layout.width);
    this.end = new Int32Array(layout.width);
    this.decoded = new Array(layout.width);
    for (const [id, at] of layout.place) {
      this.answerStarts.push(new Pattern(Buffer.from(`{"question_id":${JSON.stringify(id)},"value":`, 'utf8')));
      this.questionPlace.push(at);
    }
  }

  /** The CSV of every response in `page`, and how many there were. */
  write(page: Uint8Array): { csv: Buffer; count: number } {
    const b = Buffer.isBuffer(page) ? page : Buffer.from(page.buffer, page.byteOffset, page.byteLength);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const out = this.out;
    out.n = 0;
    let count = 0;
    for (let p = 0; p < b.length; ) {
      const idEnd = b.indexOf(US, p);
      const submittedEnd = b.indexOf(US, idEnd + 1);
      const completedEnd = b.indexOf(US, submittedEnd + 1);
      const hiddenEnd = b.indexOf(US, completedEnd + 1);
      const recordEnd = b.indexOf(RS, hiddenEnd + 1);
      if (idEnd < 0 || submittedEnd < 0 || completedEnd < 0 || hiddenEnd < 0 || recordEnd < 0) throw new Error('Malformed export page');
      this.kind.fill(EMPTY);
      this.packedField(b, 0, p, idEnd);
      this.packedField(b, 1, idEnd + 1, submittedEnd);
      this.packedField(b, 2, submittedEnd + 1, completedEnd);
      const s = hiddenEnd + 1;
      if (!this.readAnswers(b, dv, s, recordEnd)) {
        this.clearAnswers();
        this.decodeAnswers(b, s, recordEnd);
      }
      if (hiddenEnd > completedEnd + 1) this.placeHidden(b, completedEnd + 1, hiddenEnd);
      // Raw cells never grow by more than a quote pair and an apostrophe; decoded ones reserve their own room.
      out.reserveRow(recordEnd - p + 3 * this.width + 2);
      this.writeRow(b, out);
      count++;
      p = recordEnd + 1;
    }
    return { csv: Buffer.from(out.buf.subarray(0, out.n)), count };
  }

  private cell(col: number, kind: number, s: number, e: number) {
    this.kind[col] = s === e ? EMPTY : kind;
    this.start[col] = s;
    this.end[col] = e;
  }

  /** The id and timestamps: text as is, decoded only if CSV must quote them for more than a comma. */
  private packedField(b: Buffer, col: number, s: number, e: number) {
    let kind = STRING;
    for (let i = s; i < e; i++) {
      const c = b[i];
      if (c === COMMA) kind = STRING_COMMA;
      else if (c === QUOTE || c === CR || c === LF) return this.decode(col, b.toString('utf8', s, e));
    }
    this.cell(col, kind, s, e);
  }

  private clearAnswers() {
    for (let col = 3; col < this.width; col++) this.kind[col] = EMPTY;
  }

  /**
   * Answers as JSON.stringify writes them, which is how both adapters store them:
   * `[{"question_id":"…","value":…},…]` with no spaces. False as soon as anything differs (other spacing
   * or key order, an escaped question id): the response is then decoded whole. A string value is scanned
   * once, for its end, its escapes and its commas together.
   */
  private readAnswers(b: Buffer, dv: DataView, s: number, e: number): boolean {
    if (b[s] !== LBRACKET) return false;
    let i = s + 1;
    if (b[i] === RBRACKET) return i + 1 === e;
    for (;;) {
      const q = this.findQuestion(b, dv, i);
      let at: CsvColumns | undefined;
      let vs: number;
      if (q >= 0) {
        at = this.questionPlace[q];
        vs = i + this.answerStarts[q]!.bytes.length;
      } else {
        // An unknown id (a deleted question) is skipped; one with escapes is decoded with the rest.
        if (!bytesAt(b, i, ANSWER_START)) return false;
        i += ANSWER_START.length;
        const close = closingQuote(b, i - 1, e);
        if (close === MALFORMED) return false;
        for (let k = i; k < close; k++) if (b[k] === BACKSLASH) return false;
        if (!bytesAt(b, close + 1, VALUE_KEY)) return false;
        vs = close + 1 + VALUE_KEY.length;
      }
      let ve: number;
      if (b[vs] === QUOTE && typeof at === 'number') {
        let kind = STRING;
        let j = vs + 1;
        for (; j < e; j++) {
          const c = b[j];
          if (c === QUOTE) break;
          if (c === BACKSLASH) {
            kind = STRING_ESCAPED;
            j++;
          } else if (c === COMMA && kind === STRING) kind = STRING_COMMA;
        }
        if (j >= e) return false;
        this.cell(at, kind, vs + 1, j);
        ve = j + 1;
      } else {
        ve = valueEnd(b, vs, e);
        if (ve === MALFORMED || ve === vs) return false;
        if (at !== undefined) this.place(b, at, vs, ve);
      }
      if (b[ve] !== RBRACE) return false;
      i = ve + 1;
      if (b[i] === COMMA) i++;
      else return b[i] === RBRACKET && i + 1 === e;
    }
  }

  /** The index of the question whose answer starts at `i`, or -1. */
  private findQuestion(b: Buffer, dv: DataView, i: number): number {
    const starts = this.answerStarts;
    const n = starts.length;
    for (let k = 0, q = this.guess; k < n; k++, q = q + 1 === n ? 0 : q + 1) {
      if (starts[q]!.at(b, dv, i)) {
        this.guess = q + 1 === n ? 0 : q + 1;
        return q;
      }
    }
    return -1;
  }

  /**
   * Puts the answer whose JSON value is [s, e) in its column(s). `readAnswers` placed a string of a
   * one-column question itself; arrays and objects are decoded, and only an object fills sub-fields.
   */
  private place(b: Buffer, at: CsvColumns, s: number, e: number) {
    const first = b[s];
    if (first === LBRACE || first === LBRACKET) placeAnswer(at, JSON.parse(b.toString('utf8', s, e)), this.decode);
    else if (typeof at !== 'number') return;
    else if (first === 0x6e /* null */) this.kind[at] = EMPTY;
    else this.cell(at, SCALAR, s, e);
  }

  private readonly decode = (col: number, value: unknown) => {
    this.kind[col] = DECODED;
    this.decoded[col] = value;
  };

  /** The response's hidden field values (a JSON object, present only for forms with hidden fields) in their columns. */
  private placeHidden(b: Buffer, s: number, e: number) {
    if (this.layout.hidden.length === 0) return;
    const values: unknown = JSON.parse(b.toString('utf8', s, e));
    if (!values || typeof values !== 'object' || Array.isArray(values)) return;
    for (const [name, col] of this.layout.hidden) {
      if (Object.hasOwn(values, name)) this.decode(col, (values as Record<string, unknown>)[name]);
    }
  }

  /** The slow, exact path for a response `readAnswers` did not understand. */
  private decodeAnswers(b: Buffer, s: number, e: number) {
    for (const a of JSON.parse(b.toString('utf8', s, e)) as Answer[]) {
      const at = this.layout.place.get(a.question_id);
      if (at !== undefined) placeAnswer(at, a.value, this.decode);
    }
  }

  /** One row; the caller reserved room for every raw cell. */
  private writeRow(b: Buffer, out: Output) {
    const width = this.width;
    for (let col = 0; col < width; col++) {
      if (col) out.buf[out.n++] = COMMA;
      const kind = this.kind[col];
      if (kind === EMPTY) continue;
      const s = this.start[col]!;
      const e = this.end[col]!;
      if (kind === STRING || kind === STRING_COMMA) {
        if (kind === STRING_COMMA) out.buf[out.n++] = QUOTE;
        if (isFormulaStart(b[s]!)) out.buf[out.n++] = APOSTROPHE;
        out.bytes(b, s, e);
        if (kind === STRING_COMMA) out.buf[out.n++] = QUOTE;
      } else if (kind === SCALAR) out.bytes(b, s, e);
      else {
        const v = kind === DECODED ? this.decoded[col] : JSON.parse(b.toString('utf8', s - 1, e + 1));
        this.decoded[col] = undefined;
        out.text(csvField(v));
      }
    }
    out.buf[out.n++] = CR;
    out.buf[out.n++] = LF;
  }
}
