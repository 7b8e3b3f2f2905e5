/**
 * A mediabunny `Output` writing to an append-only stream whose bytes are collected in a queue, so a codec
 * can hand out what is ready after each write. Append-only keeps the output streamable: nothing is ever
 * rewritten (so MP3 goes without a Xing header; see docs/decisions.md).
 */
import type { Mediabunny } from '../wasm';
import { concatBytes } from './codec';

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
