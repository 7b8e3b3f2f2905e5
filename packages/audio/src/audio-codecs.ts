/**
 * The package's entry point: an explicit factory that owns the lazily loaded wasm modules, and the
 * streaming helpers built on {@link AudioEncoder}. Create one per process (or per mounted Formloom) and
 * share it; nothing is loaded until the first encoder needs it.
 */
import type { PcmChunk } from '@formloom/core';
import { AudioEncoder, type EncoderOptions, resolveOutputSpec } from './encoder';
import type { OutputSpec } from './formats';
import { WasmModules } from './wasm';

/** A whole encoded file. */
export interface EncodedAudio {
  bytes: Uint8Array;
  spec: OutputSpec;
  /** Duration of the encoded audio in ms (the voice API's `duration_ms`). */
  durationMs: number;
}

export interface EncodeStreamOptions extends EncoderOptions {
  /** Aborting it stops encoding: the iterator rejects with the signal's reason and the source is closed. */
  signal?: AbortSignal;
  /** Called once the stream is finished, with the encoder (for `durationMs`, `finalHeader()`). */
  onFinish?: (encoder: AudioEncoder) => void;
}

export class AudioCodecs {
  private readonly modules = new WasmModules();

  /** A new encoder for one output stream. Throws RangeError for an unknown format or quality. */
  createEncoder(options: EncoderOptions): AudioEncoder {
    return new AudioEncoder(resolveOutputSpec(options), this.modules);
  }

  /**
   * Encodes a PCM stream, yielding encoded bytes as they become ready. Pull-based: the next chunk is read
   * from `source` only when the consumer asks for more bytes, so a slow client slows synthesis down instead
   * of filling memory. The concatenation of every yielded piece is a valid file. When the consumer stops
   * early (`break`, an error, `signal`), the encoder is freed and `source` is closed.
   */
  async *encode(source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>, options: EncodeStreamOptions): AsyncGenerator<Uint8Array, void, undefined> {
    const encoder = this.createEncoder(options);
    const { signal } = options;
    let finished = false;
    try {
      for await (const chunk of source) {
        signal?.throwIfAborted();
        const bytes = await encoder.write(chunk);
        if (bytes.length > 0) yield bytes;
      }
      signal?.throwIfAborted();
      const last = await encoder.finish();
      finished = true;
      options.onFinish?.(encoder);
      if (last.length > 0) yield last;
    } finally {
      if (!finished) encoder.abort();
    }
  }

  /**
   * Encodes a PCM stream into one buffer: for stored generations and synchronous answers. The WAV header
   * carries the exact sizes here (not the streaming ones).
   */
  async encodeToBuffer(source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>, options: EncoderOptions & { signal?: AbortSignal }): Promise<EncodedAudio> {
    const pieces: Uint8Array[] = [];
    let done: AudioEncoder | undefined;
    for await (const piece of this.encode(source, { ...options, onFinish: (encoder) => (done = encoder) })) pieces.push(piece);
    const encoder = done!;
    const bytes = Buffer.concat(pieces);
    const header = encoder.finalHeader();
    if (header) bytes.set(header, 0);
    return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), spec: encoder.spec, durationMs: encoder.durationMs };
  }
}

/** A factory with its own (not yet loaded) wasm modules. */
export function createAudioCodecs(): AudioCodecs {
  return new AudioCodecs();
}
