import { EspeakSynthesisError, type FromChild, type ToChild } from './messages';

/**
 * One message to a child and its answers. PCM arrives in `samples()` as the child posts it; `finished`
 * settles with the final message (or the failure). A job belongs to one pool slot while it runs.
 */
export class Job {
  readonly finished: Promise<FromChild>;
  private settle!: { resolve: (m: FromChild) => void; reject: (e: Error) => void };
  private readonly chunks: Int16Array[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private done = false;
  /** Set once nobody wants the result: queued jobs are dropped, a running one is left to finish. */
  cancelled = false;

  constructor(readonly id: number, readonly message: ToChild) {
    this.finished = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.finished.catch(() => {}); // observed through samples(); never an unhandled rejection
  }

  receive(message: FromChild): void {
    if (message.type === 'pcm') this.chunks.push(message.samples);
    else if (message.type === 'error') return this.fail(new EspeakSynthesisError(message.message));
    else {
      this.done = true;
      this.settle.resolve(message);
    }
    this.wake?.();
  }

  fail(error: Error): void {
    if (this.done || this.failure) return;
    this.failure = error;
    this.settle.reject(error);
    this.wake?.();
  }

  /** PCM in order as it arrives; rejects with `signal.reason` as soon as the signal aborts. */
  async *samples(signal?: AbortSignal): AsyncGenerator<Int16Array> {
    for (;;) {
      signal?.throwIfAborted();
      const next = this.chunks.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.done) return;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        this.wake = () => {
          signal?.removeEventListener('abort', onAbort);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }
}
