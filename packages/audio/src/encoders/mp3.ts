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

  close(): void {
    this.muxed?.cancel();
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
 * Waits until LAME (in its worker) has encoded every sample added so far and the muxer has written the
 * frames. `add` resolves before that (back-pressure only), so without this wait each `write` would hand out
 * the previous write's frames: a stream's first sentence would go out only once the second is made
 * (docs/voice.md, "Streaming"). mediabunny has no public call for it; this reads the internals of the
 * pinned version (1.61.0: `AudioEncoderWrapper.customEncoderCallSerializer`, a promise chain that runs
 * encode calls in order, and `lastMuxerPromise`); if they are absent it returns at once, as before, and
 * the test "mp3: each write returns the frames of its samples" fails.
 */
async function drained(source: object): Promise<void> {
  const wrapper = (source as { _encoder?: { customEncoderCallSerializer?: { call(fn: () => void): Promise<void> }; lastMuxerPromise?: Promise<void> } })._encoder;
  await wrapper?.customEncoderCallSerializer?.call(() => {});
  await wrapper?.lastMuxerPromise;
}
