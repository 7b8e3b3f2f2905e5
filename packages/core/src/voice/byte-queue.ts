/**
 * Bytes handed from a producer that must run to the end (a voice stream is finished, saved and charged even
 * when its client leaves: docs/voice.md, "Streaming") to a consumer that may stop reading at any time.
 * Leaving the loop only stops delivery; the producer keeps pushing into a queue nobody reads.
 */
export class ByteQueue implements AsyncIterable<Uint8Array> {
  private readonly items: Uint8Array[] = [];
  private done = false;
  private error: unknown = null;
  private wake: (() => void) | null = null;
  private detached = false;

  push(bytes: Uint8Array): void {
    if (this.detached || bytes.length === 0) return;
    this.items.push(bytes);
    this.signal();
  }

  end(): void {
    this.done = true;
    this.signal();
  }

  fail(error: unknown): void {
    this.error = error ?? new Error('stream failed');
    this.done = true;
    this.signal();
  }

  private signal() {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const next = this.items.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.error) throw this.error;
        if (this.done) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      // The consumer left (or finished): drop what is queued and whatever comes later.
      this.detached = true;
      this.items.length = 0;
    }
  }
}
