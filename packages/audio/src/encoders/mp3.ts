/**
 * `mp3`: LAME (wasm, in a worker thread that @mediabunny/mp3-encoder starts per encoder) through
 * mediabunny's MP3 muxer, constant bit rate, append-only (no Xing header, so it streams; readers take
 * the duration from the constant bit rate).
 *
 * An empty input still gives a playable file: a frame's worth of silence (48-216 ms of frames with LAME's
 * delay), because an MP3 without frames is a zero-byte file nothing can identify. See docs/decisions.md.
 */
import type { OutputSpec } from '../formats';
import { toInt16 } from '../pcm';
import type { Mediabunny, WasmModules } from '../wasm';
import { type Codec, concatBytes, MuxedOutput } from './codec';

/** Bits per second per quality (all valid MPEG-1/2/2.5 layer III rates for the matching sample rate). */
export const MP3_BITRATES: Record<OutputSpec['quality'], number> = { phone: 32_000, standard: 64_000, studio: 128_000 };

/** Samples per MP3 frame: 1152 for MPEG-1 (32-48 kHz), 576 below. */
export function mp3FrameSamples(sampleRate: number): number {
  return sampleRate >= 32_000 ? 1152 : 576;
}

export class Mp3Codec implements Codec {
  private ready: Promise<void> | undefined;
  private mb: Mediabunny | undefined;
  private muxed: MuxedOutput | undefined;
  private source: InstanceType<Mediabunny['AudioSampleSource']> | undefined;
  private written = 0;
  /** Set by `prepare`: the output started and LAME's worker started and initialised. */
  private warm: Promise<void> | undefined;
  /** Whether LAME's worker keeps the process alive (a spare waiting in {@link Mp3Spares} does not). */
  private held = true;

  constructor(private readonly spec: OutputSpec, private readonly modules: WasmModules) {}

  async write(samples: Float32Array): Promise<Uint8Array> {
    await (this.ready ??= this.init());
    if (samples.length > 0) await this.add(samples);
    return this.muxed!.take();
  }

  async finish(): Promise<Uint8Array> {
    await (this.ready ??= this.init());
    const out: Uint8Array[] = [];
    if (this.written === 0) {
      await this.add(new Float32Array(mp3FrameSamples(this.spec.sampleRate)));
      out.push(this.muxed!.take());
    }
    this.source!.close();
    out.push(await this.muxed!.finalize());
    return concatBytes(out);
  }

  /**
   * Starts the output and LAME's worker (a thread start and a wasm compile: ~0.3 s of CPU) without waiting
   * for samples, so that a stream's first frames are not held up by it once its first sentence is made.
   */
  prepare(): void {
    this.ready ??= this.init();
    this.warm ??= this.ready
      .then(() => startEncoder(this.source!, this.spec.sampleRate))
      .then(() => this.applyHold())
      .catch(() => undefined);
  }

  /** `false`: the worker does not keep the process alive (while the codec waits unused). */
  keepAlive(on: boolean): void {
    this.held = on;
    this.applyHold();
  }

  private applyHold(): void {
    const worker = this.source && wrapperOf(this.source)?.customEncoder?.worker;
    if (worker && typeof worker.ref === 'function') (this.held ? worker.ref() : worker.unref?.());
  }

  close(): void {
    // A worker still starting cannot be stopped yet: cancel once it is up, so that none is left running.
    if (this.warm) void this.warm.then(() => this.muxed?.cancel());
    else this.muxed?.cancel();
  }

  private async init(): Promise<void> {
    const mb = (this.mb = await this.modules.mediabunnyWithMp3());
    this.muxed = new MuxedOutput(mb, new mb.Mp3OutputFormat({ xingHeader: false }));
    this.source = new mb.AudioSampleSource({
      codec: 'mp3',
      quality: new mb.Quality({ bitrate: MP3_BITRATES[this.spec.quality], bitrateMode: 'constant' }),
    });
    this.muxed.output.addAudioTrack(this.source);
    await this.muxed.output.start();
  }

  private async add(samples: Float32Array): Promise<void> {
    const sample = new this.mb!.AudioSample({
      data: toInt16(samples),
      format: 's16',
      numberOfChannels: 1,
      sampleRate: this.spec.sampleRate,
      timestamp: this.written / this.spec.sampleRate,
    });
    this.written += samples.length;
    try {
      // Resolves when the encoder and writer can take more: this is the back-pressure.
      await this.source!.add(sample);
    } finally {
      sample.close();
    }
    await drained(this.source!);
  }
}

/**
 * One prepared MP3 codec per output rate and quality, waiting for the next encoder: its LAME worker is
 * started and compiled (~0.3 s of CPU) before anyone needs it, so an MP3 stream's first frames wait only
 * for its first sentence. Each `take` hands the spare out and prepares the next one; a spare's worker does
 * not keep the process alive.
 */
export class Mp3Spares {
  private readonly spares = new Map<string, Mp3Codec>();

  constructor(private readonly modules: WasmModules) {}

  take(spec: OutputSpec): Mp3Codec {
    const key = `${spec.sampleRate}/${spec.quality}`;
    const spare = this.spares.get(key);
    const next = new Mp3Codec(spec, this.modules);
    next.keepAlive(false);
    next.prepare();
    this.spares.set(key, next);
    if (!spare) return new Mp3Codec(spec, this.modules);
    spare.keepAlive(true);
    return spare;
  }
}

type EncoderWrapper = {
  customEncoderCallSerializer?: { call(fn: () => void): Promise<void> };
  lastMuxerPromise?: Promise<void>;
  encoderInitialized?: boolean;
  ensureEncoderPromise?: Promise<void> | null;
  ensureEncoder?(sample: { numberOfChannels: number; sampleRate: number }): void;
  customEncoder?: { worker?: { ref?(): void; unref?(): void } | null } | null;
};
const wrapperOf = (source: object) => (source as { _encoder?: EncoderWrapper })._encoder;

/**
 * Has mediabunny create and initialise the source's encoder (the LAME worker) before the first sample, as
 * the first `add` would: `ensureEncoder` reads only the channel count and rate of the sample it is given.
 * Internals of the pinned mediabunny 1.61.0 (see `drained`); absent, the first `add` starts it as before.
 */
function startEncoder(source: object, sampleRate: number): Promise<void> {
  const wrapper = wrapperOf(source);
  if (!wrapper?.ensureEncoder || wrapper.encoderInitialized || wrapper.ensureEncoderPromise) return Promise.resolve();
  wrapper.ensureEncoder({ numberOfChannels: 1, sampleRate });
  return wrapper.ensureEncoderPromise ?? Promise.resolve();
}

/**
 * Waits until LAME (in its worker) has encoded every sample added so far and the muxer has written the
 * frames. `add` resolves before that (back-pressure only), so without this wait each `write` would hand out
 * the previous write's frames: a stream's first sentence would go out only once the second is made
 * (docs/voice.md, "Streaming"). mediabunny has no public call for it; this reads the internals of the
 * pinned version (1.61.0: `AudioEncoderWrapper.customEncoderCallSerializer`, a promise chain that runs
 * encode calls in order, and `lastMuxerPromise`); if they are absent it returns at once, as before, and
 * the test "mp3: each write returns the frames of its samples" fails.
 */
async function drained(source: object): Promise<void> {
  const wrapper = wrapperOf(source);
  await wrapper?.customEncoderCallSerializer?.call(() => {});
  await wrapper?.lastMuxerPromise;
}
