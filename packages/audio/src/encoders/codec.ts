/**
 * The inner interface every format implements: mono float samples at the output rate in, bytes out.
 * `AudioEncoder` (encoder.ts) puts the PCM conditioning and the public contract around it.
 *
 * `MuxedOutput` is a mediabunny `Output` writing to an append-only stream whose bytes are collected in a
 * queue, so a codec can hand out what is ready after each write. Append-only keeps the output streamable:
 * nothing is ever rewritten (so MP3 goes without a Xing header; see docs/decisions.md).
 */
import type { Mediabunny } from '../wasm';

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
  /** Optional: starts what the first `write` would (a worker, a compile) now, while the input is made. */
  prepare?(): void;
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

type Output = InstanceType<Mediabunny['Output']>;
type OutputFormat = InstanceType<Mediabunny['OutputFormat']>;

export class MuxedOutput {
  readonly output: Output;
  private pending: Uint8Array[] = [];
  private failure: unknown;

  constructor(mb: Mediabunny, format: OutputFormat) {
    const writable = new WritableStream<Uint8Array>({
      write: (chunk) => {
        // mediabunny may reuse its buffers: keep a copy.
        this.pending.push(chunk.slice());
      },
    });
    this.output = new mb.Output({ format, target: new mb.AppendOnlyStreamTarget(writable) });
  }

  /** The bytes written since the last call. */
  take(): Uint8Array {
    if (this.failure) throw this.failure;
    const bytes = concatBytes(this.pending);
    this.pending = [];
    return bytes;
  }

  /** Finalizes the container and returns the remaining bytes. */
  async finalize(): Promise<Uint8Array> {
    await this.output.finalize();
    return this.take();
  }

  /** Cancels the output (after an error or abort), without throwing. */
  cancel(): void {
    if (this.output.state === 'started' || this.output.state === 'pending') {
      this.output.cancel().catch((error: unknown) => {
        this.failure ??= error;
      });
    }
  }
}
