/**
 * The inner interface every format implements: mono float samples at the output rate in, bytes out.
 * `AudioEncoder` (encoder.ts) puts the PCM conditioning and the public contract around it.
 */

export interface Codec {
  /** Encodes the next samples; resolves with whatever encoded bytes are complete (possibly none). */
  write(samples: Float32Array): Promise<Uint8Array>;
  /** Encodes what is buffered and ends the stream; resolves with the last bytes. */
  finish(): Promise<Uint8Array>;
  /**
   * After `finish`: bytes that replace the start of the output when it was kept whole and can be patched
   * (a WAV header with the real sizes). Undefined for formats that need no patch.
   */
  finalHeader?(): Uint8Array | undefined;
  /** Frees wasm memory and workers; idempotent, also after `finish`. */
  close(): void;
}

export const EMPTY = new Uint8Array(0);

export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 0) return EMPTY;
  if (pieces.length === 1) return pieces[0]!;
  let total = 0;
  for (const p of pieces) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
