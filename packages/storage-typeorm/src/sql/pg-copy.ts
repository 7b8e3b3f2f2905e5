import type { Readable } from 'node:stream';

/*
 * Reading a SELECT through PostgreSQL's `COPY (...) TO STDOUT (FORMAT binary)`: the rows stream from one
 * statement as the server's own bytes, with no row objects or text parsing in the driver and no statement
 * per page, which is how `psql \copy` reads them. The CSV export reads its rows this way (docs/benchmarks.md,
 * "The CSV export").
 */

/** The part of a pg client used for COPY. */
export interface CopyClient {
  query(stream: Readable): Readable;
  release(err?: Error | boolean): void;
}

/** The part of pg's Pool used for COPY. */
export interface CopyPool {
  connect(): Promise<CopyClient>;
}

/**
 * Bytes a copy may hold before it stops reading the connection. With the stream's default of 16 kB the
 * server stopped at every pause of the export's CSV writing, and both sides waited in turn.
 */
const COPY_BUFFER = 1024 * 1024;

/**
 * The bytes `COPY (select) TO STDOUT (FORMAT binary)` writes, on a connection of its own for the whole
 * copy. A copy left before its end (the client went away, an error) ends its connection: a connection in
 * the middle of a COPY cannot go back to the pool, and closing it stops the statement on the server.
 */
export async function* copyOut(pool: CopyPool, select: string): AsyncGenerator<Buffer> {
  // pg-copy-streams is loaded by the first export, not at start (docs/decisions.md, "Session 10").
  const { to } = (await import('pg-copy-streams')) as typeof import('pg-copy-streams');
  const client = await pool.connect();
  let finished = false;
  try {
    const stream = client.query(to(`COPY (${select}) TO STDOUT (FORMAT binary)`, { highWaterMark: COPY_BUFFER }));
    for await (const chunk of stream) yield chunk as Buffer;
    finished = true;
  } finally {
    client.release(finished ? undefined : new Error('COPY left before its end'));
  }
}

/** A string as a PostgreSQL literal, safe whatever `standard_conforming_strings` says (pg's own rule). */
export function pgLiteral(s: string): string {
  let backslash = false;
  let out = "'";
  for (const c of s) {
    if (c === "'") out += "''";
    else if (c === '\\') {
      out += '\\\\';
      backslash = true;
    } else out += c;
  }
  out += "'";
  return backslash ? ` E${out}` : out;
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Signature, flags and the header extension's length. */
const HEADER = SIGNATURE.length + 8;

/** Rows packed one after the other: each row's fields separated by US (0x1f) and ended by RS (0x1e). */
export interface PackedRows {
  /** Rows in `bytes`. */
  count: number;
  /** Valid until the next rows are asked for (every page is packed into the same buffer); empty with `lines`. */
  bytes: Buffer;
  /** With `copyPacked`'s `lines`: the rows' first fields one after the other, as text (PackedResponses.lines). */
  lines?: string;
}

/**
 * `k` bytes of `src` at `i` into `dst` at `n`. Buffer#copy costs some 700 ns a call, which over the five
 * fields of 100,000 rows was a sixth of the export's time: short fields are copied by a loop, longer ones by
 * TypedArray#set, which V8 runs without leaving JavaScript.
 */
export function copyBytes(src: Buffer, i: number, k: number, dst: Buffer, n: number): void {
  if (k < 64) for (let j = 0; j < k; j++) dst[n + j] = src[i + j]!;
  else dst.set(new Uint8Array(src.buffer, src.byteOffset + i, k), n);
}

const US = 0x1f;
const RS = 0x1e;
const EMPTY = Buffer.alloc(0);

/** What becomes of a field's bytes. */
const PACK = 0; // copied, then US (or RS after a row's last field)
const LINE = 1; // copied as they are
const DROP = 2; // skipped

/**
 * The rows of a binary COPY, packed `per` rows to a buffer (fewer in the last): the PackedResponses format
 * when the SELECT reads a response's packed fields in order. A field's bytes are copied once, straight
 * from the chunk they arrive in (a `text` value's binary form is its UTF-8 text); a NULL packs as an empty
 * field. Only the few bytes of a header that a chunk cuts are put back together.
 *
 * With `lines`, a row's first field is its CSV line or NULL: a row with a line gives that line (the rest
 * of the row is dropped), a row without is packed from its other fields. Rows of the two kinds never share
 * a page, so a page may end early where the kind changes: the order stays the SELECT's.
 */
export async function* copyPacked(chunks: AsyncIterable<Buffer>, per: number, options: { lines?: boolean } = {}): AsyncGenerator<PackedRows> {
  const withLines = options.lines === true;
  let head: Buffer = Buffer.alloc(0); // bytes of a header (the file's, a row's or a field's) cut by a chunk
  let headerRead = false;
  let extension = 0;
  let page = Buffer.allocUnsafe(64 * 1024);
  let n = 0;
  let count = 0;
  /** Whether the rows in `page` are lines. */
  let pageOfLines = false;
  /** Fields of the current row, and of those still to read; 0 between rows. */
  let fields = 0;
  let fieldsLeft = 0;
  /** Whether the current row is a line; what becomes of the current field. */
  let rowIsLine = false;
  let mode = PACK;
  /** Bytes of the current field still to copy. */
  let rest = 0;
  let ended = false;
  const room = (extra: number) => {
    if (n + extra <= page.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(page.length * 2, n + extra));
    page.copy(bigger, 0, 0, n);
    page = bigger;
  };
  /**
   * The rows packed so far. The next rows reuse the buffer: a fresh one per page left the allocator holding
   * memory after the export (docs/benchmarks.md, "The CSV export"). Lines are handed over as text.
   */
  const take = (): PackedRows => {
    const done: PackedRows = pageOfLines ? { count, bytes: EMPTY, lines: page.toString('utf8', 0, n) } : { count, bytes: page.subarray(0, n) };
    n = 0;
    count = 0;
    return done;
  };
  /** Ends the current field; true when that ended the row. */
  const fieldEnd = (): boolean => {
    const last = --fieldsLeft === 0;
    if (mode === PACK) page[n++] = last ? RS : US;
    return last;
  };
  for await (const chunk of chunks) {
    if (ended) throw new Error('COPY: bytes after the end of the data');
    let b = chunk;
    let i = 0;
    if (head.length) {
      b = Buffer.concat([head, chunk]);
      head = Buffer.alloc(0);
    }
    while (i < b.length) {
      if (!headerRead) {
        if (b.length - i < HEADER) break;
        if (!b.subarray(i, i + SIGNATURE.length).equals(SIGNATURE)) throw new Error('COPY: not a binary COPY stream');
        extension = b.readUInt32BE(i + SIGNATURE.length + 4);
        i += HEADER;
        headerRead = true;
      }
      if (extension > 0) {
        const skip = Math.min(extension, b.length - i);
        extension -= skip;
        i += skip;
        continue;
      }
      if (rest > 0) {
        const k = Math.min(rest, b.length - i);
        if (mode !== DROP) {
          copyBytes(b, i, k, page, n);
          n += k;
        }
        i += k;
        rest -= k;
        if (rest > 0) break;
        if (fieldEnd() && ++count === per) yield take();
        continue;
      }
      if (fieldsLeft === 0) {
        if (b.length - i < 2) break;
        fields = b.readInt16BE(i);
        i += 2;
        if (fields === -1) {
          ended = true;
          if (i < b.length) throw new Error('COPY: bytes after the end of the data');
          break;
        }
        if (fields < (withLines ? 2 : 1)) throw new Error(`COPY: a row of ${fields} fields`);
        fieldsLeft = fields;
        continue;
      }
      if (b.length - i < 4) break;
      const length = b.readInt32BE(i);
      i += 4;
      if (withLines && fieldsLeft === fields) {
        rowIsLine = length >= 0;
        // A page holds rows of one kind: one of the other kind ends it here.
        if (count > 0 && pageOfLines !== rowIsLine) yield take();
        pageOfLines = rowIsLine;
        mode = rowIsLine ? LINE : DROP;
      } else mode = withLines && rowIsLine ? DROP : PACK;
      // The field and the separator after it.
      if (mode !== DROP) room(Math.max(length, 0) + 1);
      if (length > 0) rest = length;
      else if (fieldEnd() && ++count === per) yield take();
    }
    if (i < b.length) head = Buffer.from(b.subarray(i));
  }
  if (!ended || head.length || rest > 0 || fieldsLeft > 0) throw new Error('COPY: the data ended in the middle of a row');
  if (count > 0) yield take();
}
