/**
 * HTTP range requests (RFC 9110 section 14) on a file of `size` bytes, for downloads that may resume. One
 * range only: a list of ranges is answered with the whole file (which the RFC allows), as is a `Range` sent
 * with `If-Range` (the file has no validator to compare it with, so the client gets the whole file rather than
 * a piece of one that may have changed) or one that is not of `bytes`.
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/** The range a request asks for, `unsatisfiable` (416) when it lies outside the file, or `null`: the whole file. */
export function requestedRange(headers: { range?: string; 'if-range'?: string }, size: number): ByteRange {
  const header = headers.range;
  if (!header || headers['if-range'] !== undefined) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // The last n bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null; // invalid: ignored, as the RFC says
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * Bytes `start` to `end` (inclusive) of `body`: the pieces before are read and dropped (a store reads from the
 * beginning), and the read stops after `end`, releasing the source.
 */
export async function* sliceBytes(body: AsyncIterable<Uint8Array>, start: number, end: number): AsyncGenerator<Uint8Array> {
  let at = 0;
  for await (const piece of body) {
    const from = Math.max(0, start - at);
    const to = Math.min(piece.byteLength, end + 1 - at);
    at += piece.byteLength;
    if (to > from) yield piece.subarray(from, to);
    if (at > end) return;
  }
}

/**
 * Releases what an unread blob stream holds (an open file, a response): starts it and ends it at once, which
 * runs a generator's `finally` (ending one never started would not). A failing read changes nothing here.
 */
export async function discard(body: AsyncIterable<Uint8Array>): Promise<void> {
  const it = body[Symbol.asyncIterator]();
  try {
    await it.next();
  } catch {
    // Nothing more to release.
  } finally {
    await it.return?.()?.catch(() => undefined);
  }
}
