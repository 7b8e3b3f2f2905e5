/**
 * `IsolatedAudioCodecs`: the `AudioEncoding` port of @formloom/core with every codec (LAME, libopus, the
 * Speex resampler: all WebAssembly) in child processes, so a fault in one ends a child, never the server.
 * The server keeps only the checks of the options and the plumbing. Use it in servers; `AudioCodecs` (the
 * same codecs in this process) suits tests and one-shot tools. See docs/voice.md ("Audio formats").
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { PcmChunk } from '@formloom/core';
import { type EncoderOptions, resolveOutputSpec } from '../encoder';
import type { OutputSpec } from '../formats';
import type { EncoderLogger } from './messages';
import { type EncoderChildInfo, EncoderPool } from './pool';

export interface IsolatedAudioCodecsOptions {
  /** Encoder processes at most (streams share them). Default: 2, or 1 on a single core. */
  processes?: number;
  /** A process without streams for this long exits, giving its memory back. Default 30,000. */
  idleMs?: number;
  /** Where a process's death is reported (a pino logger fits): one `error` line each. */
  logger?: EncoderLogger;
  /** The child script; default this package's own. For tests. */
  childScript?: string;
}

/** What the stream's `onFinish` gets: the encoded duration, the output, and the WAV header to patch in. */
export interface FinishedStream {
  durationMs: number;
  spec: OutputSpec;
  finalHeader(): Uint8Array | undefined;
}

export class IsolatedAudioCodecs {
  private readonly pool: EncoderPool;

  constructor(options: IsolatedAudioCodecsOptions = {}) {
    const processes = options.processes ?? Math.min(2, availableParallelism());
    if (!Number.isInteger(processes) || processes < 1) throw new RangeError('processes must be a positive integer');
    const idleMs = options.idleMs ?? 30_000;
    if (!(idleMs > 0)) throw new RangeError('idleMs must be positive');
    this.pool = new EncoderPool({
      size: processes,
      idleMs,
      logger: options.logger,
      childScript: options.childScript ?? join(__dirname, 'child.js'),
    });
  }

  /** What `options` produce. Throws RangeError for an unknown format or quality. */
  outputSpec(options: EncoderOptions): OutputSpec {
    return resolveOutputSpec(options);
  }

  /** The encoder processes (pid, open streams) and how many died unexpectedly. */
  stats(): { children: EncoderChildInfo[]; crashes: number } {
    return this.pool.stats();
  }

  /** Ends every encoder process; open streams fail. Later streams start processes again. */
  close(): Promise<void> {
    return this.pool.close();
  }

  /**
   * As `AudioCodecs.encode`: bytes as they become ready, pull-based, the source closed when the consumer
   * stops early. Rejects with `AudioEncoderCrashedError` when the stream's process dies.
   */
  async *encode(
    source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
    options: EncoderOptions & { signal?: AbortSignal; onFinish?: (done: FinishedStream) => void }
  ): AsyncGenerator<Uint8Array, void, undefined> {
    const spec = resolveOutputSpec(options);
    const { signal } = options;
    signal?.throwIfAborted();
    const stream = this.pool.open(spec.format, spec.quality);
    let finished = false;
    try {
      for await (const chunk of source) {
        signal?.throwIfAborted();
        const bytes = await stream.write(chunk);
        if (bytes.length > 0) yield bytes;
      }
      signal?.throwIfAborted();
      const last = await stream.finish();
      finished = true;
      options.onFinish?.({ durationMs: last.durationMs, spec, finalHeader: () => last.finalHeader });
      if (last.bytes.length > 0) yield last.bytes;
    } finally {
      if (!finished) stream.abort();
    }
  }

  /** As `AudioCodecs.encodeToBuffer`: the whole file, a WAV header with the exact sizes. */
  async encodeToBuffer(
    source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
    options: EncoderOptions & { signal?: AbortSignal }
  ): Promise<{ bytes: Uint8Array; spec: OutputSpec; durationMs: number }> {
    const pieces: Uint8Array[] = [];
    let done: FinishedStream | undefined;
    for await (const piece of this.encode(source, { ...options, onFinish: (d) => (done = d) })) pieces.push(piece);
    const bytes = Buffer.concat(pieces);
    const header = done!.finalHeader();
    if (header) bytes.set(header, 0);
    return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), spec: done!.spec, durationMs: done!.durationMs };
  }
}

/** Codecs in child processes (nothing starts until the first stream). */
export function createIsolatedAudioCodecs(options?: IsolatedAudioCodecsOptions): IsolatedAudioCodecs {
  return new IsolatedAudioCodecs(options);
}
