import { Worker, type ResourceLimits } from 'node:worker_threads';

// Messages between the pool (main thread) and its eSpeak NG worker threads.

/** A voice as eSpeak NG's voice data describes it. */
export interface RawVoice {
  /** For example `English (America)`. */
  name: string;
  /** The voice file, for example `gmw/en-US`; `set_voice` accepts it. */
  identifier: string;
  /** 0 unknown, 1 male, 2 female. */
  gender: number;
  /** eSpeak language names, preferred first, for example `en-us`, `en`. */
  languages: string[];
}

export type ToWorker =
  | { type: 'warm'; id: number }
  | { type: 'voices'; id: number }
  | {
      type: 'synth';
      id: number;
      /** An eSpeak voice name, optionally with a variant: `gmw/en-US+klatt4`. */
      voice: string;
      /** Words per minute. */
      rate: number;
      text: string;
      /** Post PCM once this many samples are buffered. */
      chunkSamples: number;
    };

export type FromWorker =
  | { type: 'ready'; id: number; sampleRate: number }
  | { type: 'voices'; id: number; voices: RawVoice[]; sampleRate: number }
  | { type: 'pcm'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string };

/** The in-flight request failed because its eSpeak NG worker thread died; the pool has replaced it. */
export class EspeakWorkerCrashedError extends Error {
  constructor(detail: string) {
    super(`the eSpeak NG worker thread stopped unexpectedly (${detail}); the request was not completed`);
    this.name = 'EspeakWorkerCrashedError';
  }
}

/** eSpeak NG reported an error for one job (for example a voice it cannot load). */
export class EspeakSynthesisError extends Error {
  constructor(message: string) {
    super(`eSpeak NG failed: ${message}`);
    this.name = 'EspeakSynthesisError';
  }
}

type Request = ToWorker extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

/**
 * One message to a worker and its answers. PCM arrives in `chunks` as the worker posts it; `finished`
 * settles with the final message (or the failure). A job belongs to one pool slot while it runs.
 */
export class Job {
  readonly finished: Promise<FromWorker>;
  private settle!: { resolve: (m: FromWorker) => void; reject: (e: Error) => void };
  private readonly chunks: Int16Array[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private done = false;
  /** Set once nobody wants the result: queued jobs are dropped, a running one is left to finish. */
  cancelled = false;

  constructor(readonly id: number, readonly message: ToWorker) {
    this.finished = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.finished.catch(() => {}); // observed through chunks(); never an unhandled rejection
  }

  receive(message: FromWorker): void {
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

interface Slot {
  worker: Worker;
  job: Job | undefined;
}

export interface PoolOptions {
  size: number;
  workerPath: string;
  resourceLimits?: ResourceLimits;
}

/**
 * A small pool of eSpeak NG worker threads, started on demand. A worker that dies is dropped and its job
 * fails with {@link EspeakWorkerCrashedError}; the next job starts a fresh worker, so one crash never stops
 * the server. Idle workers are unref'd: an engine nobody closed does not keep a process alive.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly options: PoolOptions) {}

  /** Jobs running or waiting. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  get threads(): number {
    return this.slots.length;
  }

  run(request: Request): Job {
    const id = this.nextId++;
    const job = new Job(id, { ...request, id } as ToWorker);
    this.queue.push(job);
    this.dispatch();
    return job;
  }

  /** Drops a job nobody waits for any more: a queued one never runs; a running one finishes unseen. */
  cancel(job: Job): void {
    job.cancelled = true;
    const at = this.queue.indexOf(job);
    if (at >= 0) this.queue.splice(at, 1);
  }

  /** Starts workers up to the pool size (their eSpeak NG loads on their first job). */
  fill(): void {
    while (this.slots.length < this.options.size) this.spawn();
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const job of this.queue.splice(0)) job.fail(new Error('the eSpeak NG engine was closed'));
    for (const slot of slots) slot.job?.fail(new Error('the eSpeak NG engine was closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.job) ?? (this.slots.length < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(job.message);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.workerPath, { resourceLimits: this.options.resourceLimits });
    const slot: Slot = { worker, job: undefined };
    worker.unref();
    worker.on('message', (message: FromWorker) => {
      const job = slot.job;
      if (!job || message.id !== job.id) return;
      job.receive(message);
      if (message.type !== 'pcm') {
        slot.job = undefined;
        worker.unref();
        this.dispatch();
      }
    });
    const die = (detail: string) => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return; // closed, or already handled
      this.slots.splice(at, 1);
      slot.job?.fail(new EspeakWorkerCrashedError(detail));
      slot.job = undefined;
      this.dispatch();
    };
    worker.on('error', (error) => die(error.message));
    worker.on('exit', (code) => die(`exit code ${code}`));
    this.slots.push(slot);
    return slot;
  }
}
