/**
 * The public encoder: engine PCM chunks in (any rate, Int16 or Float32, any channel count), encoded bytes
 * of one voice-API format out, as they become ready; and `AudioCodecs`, the explicit factory that owns the
 * lazily loaded wasm modules, with the streaming helpers. Create one factory per process (or per mounted
 * Formloom) and share it; nothing is loaded until the first encoder needs it. See docs/voice.md.
 */
import type { PcmChunk } from '@formloom/core';
import { PcmConditioner } from './conditioner';
import {
  type AudioFormat,
  type AudioQuality,
  type OutputSpec,
  isAudioQuality,
  outputSpec,
  parseAudioFormat,
} from './formats';
import { type Codec, EMPTY } from './encoders/codec';
import { Mp3Codec, Mp3Spares } from './encoders/mp3';
import { OggOpusCodec } from './encoders/ogg-opus';
import { MulawCodec, S16leCodec, WavCodec } from './encoders/pcm-codecs';
import { samplesToMs } from './pcm';
import { WasmModules } from './wasm';

export interface EncoderOptions {
  /** A format name or alias (`ulaw_8000`). */
  format: AudioFormat | string;
  /** Defaults to the format's default quality (`phone` for `mulaw_8k`, `standard` otherwise). */
  quality?: AudioQuality | string;
}

/** Resolves and checks options; throws RangeError naming the bad value. */
export function resolveOutputSpec(options: EncoderOptions): OutputSpec {
  const format = parseAudioFormat(options.format);
  if (!format) throw new RangeError(`unknown audio format: ${options.format}`);
  if (options.quality !== undefined && !isAudioQuality(options.quality))
    throw new RangeError(`unknown audio quality: ${options.quality}`);
  return outputSpec(format, options.quality as AudioQuality | undefined);
}

function createCodec(spec: OutputSpec, modules: WasmModules): Codec {
  switch (spec.format) {
    case 'mp3':
      return new Mp3Codec(spec, modules);
    case 'ogg_opus':
      return new OggOpusCodec(spec, modules);
    case 'wav':
      return new WavCodec(spec.sampleRate);
    case 'mulaw_8k':
      return new MulawCodec();
    case 'pcm_24k':
      return new S16leCodec();
  }
}

type State = 'open' | 'finished' | 'aborted';

/**
 * One output stream. Calls are serialised: each `write` waits for the previous one. After `finish` or
 * `abort`, `write` rejects. An error in any call aborts the encoder (its wasm memory and worker freed).
 *
 * Always end an encoder with `finish` or `abort` (`AudioCodecs.encode` does it for you): an `mp3` encoder
 * holds a worker thread, which keeps the process alive until it is released.
 */
export class AudioEncoder {
  readonly spec: OutputSpec;
  private readonly conditioner: PcmConditioner;
  private readonly codec: Codec;
  private outputSamples = 0;
  private state: State = 'open';
  private queue: Promise<unknown> = Promise.resolve();
  private busy = false;

  /** `codec`: one made ahead (a prepared MP3 spare); by default a new one for `spec`. */
  constructor(spec: OutputSpec, modules: WasmModules, codec?: Codec) {
    this.spec = spec;
    this.conditioner = new PcmConditioner(spec, modules);
    this.codec = codec ?? createCodec(spec, modules);
  }

  /** `Content-Type` of the output. */
  get contentType(): string {
    return this.spec.contentType;
  }

  /** Sample frames of audio encoded so far, at `spec.sampleRate` (before codec padding). */
  get samplesEncoded(): number {
    return this.outputSamples;
  }

  /** Duration of the audio encoded so far in ms: the voice API's `duration_ms` once finished. */
  get durationMs(): number {
    return samplesToMs(this.outputSamples, this.spec.sampleRate);
  }

  /**
   * Starts the codec's set-up (for `mp3`, LAME's worker) now rather than on the first `write`: call it
   * while the first PCM is still being made. Optional; `AudioCodecs.encode` does it.
   */
  prepare(): void {
    if (this.state === 'open') this.codec.prepare?.();
  }

  /** Encodes a chunk; resolves with the encoded bytes ready now (often none for the first chunks). */
  write(chunk: PcmChunk): Promise<Uint8Array> {
    return this.serial(async () => {
      const samples = await this.conditioner.process(chunk);
      this.outputSamples += samples.length;
      return samples.length > 0 || this.spec.format === 'wav' ? this.codec.write(samples) : EMPTY;
    });
  }

  /** Ends the stream: resolves with the last bytes. The concatenation of all returned bytes is the file. */
  finish(): Promise<Uint8Array> {
    return this.serial(async () => {
      const tail = this.conditioner.flush();
      this.outputSamples += tail.length;
      const head = tail.length > 0 ? await this.codec.write(tail) : EMPTY;
      const rest = await this.codec.finish();
      this.state = 'finished';
      this.release();
      return head.length === 0 ? rest : rest.length === 0 ? head : join(head, rest);
    });
  }

  /**
   * After `finish`: bytes to write over the start of the output when it was kept whole (for `wav`, the
   * header with the exact sizes in place of the streaming one). Undefined when nothing needs patching.
   */
  finalHeader(): Uint8Array | undefined {
    if (this.state !== 'finished') return undefined;
    return this.codec.finalHeader?.();
  }

  /**
   * Stops and frees everything; queued and later calls reject. Safe to call at any time: a call already
   * running completes first (wasm memory is never freed under a running codec), then resources go.
   */
  abort(): void {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    if (!this.busy) this.release();
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      if (this.state !== 'open') throw new Error(`audio encoder is ${this.state}`);
      this.busy = true;
      try {
        return await run();
      } catch (error) {
        this.abort();
        throw error;
      } finally {
        this.busy = false;
        if ((this.state as State) === 'aborted') this.release();
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Idempotent: the conditioner and codecs free their resources once. */
  private release(): void {
    this.conditioner.destroy();
    this.codec.close();
  }
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

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
  private readonly mp3Spares = new Mp3Spares(this.modules);

  /** A new encoder for one output stream. Throws RangeError for an unknown format or quality. */
  /** What `options` produce (the `AudioEncoding` port's `outputSpec`). Throws RangeError for bad values. */
  outputSpec(options: EncoderOptions): OutputSpec {
    return resolveOutputSpec(options);
  }

  createEncoder(options: EncoderOptions): AudioEncoder {
    const spec = resolveOutputSpec(options);
    return new AudioEncoder(spec, this.modules, spec.format === 'mp3' ? this.mp3Spares.take(spec) : undefined);
  }

  /**
   * Encodes a PCM stream, yielding encoded bytes as they become ready. Pull-based: the next chunk is read
   * from `source` only when the consumer asks for more bytes, so a slow client slows synthesis down instead
   * of filling memory. The concatenation of every yielded piece is a valid file. When the consumer stops
   * early (`break`, an error, `signal`), the encoder is freed and `source` is closed.
   */
  async *encode(
    source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
    options: EncodeStreamOptions
  ): AsyncGenerator<Uint8Array, void, undefined> {
    const encoder = this.createEncoder(options);
    encoder.prepare(); // while the source makes its first chunk
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
  async encodeToBuffer(
    source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
    options: EncoderOptions & { signal?: AbortSignal }
  ): Promise<EncodedAudio> {
    const pieces: Uint8Array[] = [];
    let done: AudioEncoder | undefined;
    for await (const piece of this.encode(source, { ...options, onFinish: (encoder) => (done = encoder) }))
      pieces.push(piece);
    const encoder = done!;
    const bytes = Buffer.concat(pieces);
    const header = encoder.finalHeader();
    if (header) bytes.set(header, 0);
    return {
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
      spec: encoder.spec,
      durationMs: encoder.durationMs,
    };
  }
}

/** A factory with its own (not yet loaded) wasm modules. */
export function createAudioCodecs(): AudioCodecs {
  return new AudioCodecs();
}
