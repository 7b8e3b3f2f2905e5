/**
 * Brings engine PCM to what an encoder takes: mono float at the output rate, band-limited for `phone`.
 * `phone` resamples to 8 kHz, filters to 300-3400 Hz and, for formats with another fixed rate (`pcm_24k`),
 * resamples back up, so every `phone` output holds the same telephone-line signal.
 *
 * The input rate may change between chunks (a script whose voices come from engines with different rates):
 * the first resampler is drained and replaced, the rest of the chain carries on, so the output has no gap
 * and its length stays exact per segment.
 *
 * The telephone band: a 4th-order Butterworth high-pass at 300 Hz and a 4th-order Butterworth low-pass at
 * 3400 Hz, applied at 8 kHz after the resampler has removed everything above 4 kHz. Coefficients follow
 * the RBJ audio-EQ cookbook (bilinear transform). See docs/voice.md.
 */
import type { PcmChunk } from '@formloom/core';
import { type OutputSpec, PHONE_BAND } from './formats';
import { toMonoFloat, validatePcmChunk } from './pcm';
import { createResampler, type Resampler } from './resampler';
import type { WasmModules } from './wasm';

const PHONE_RATE = 8_000;

/** Q of the two sections of a 4th-order Butterworth filter. */
const BUTTERWORTH_Q4 = [0.541_196_1, 1.306_563] as const;

/** One direct-form-I biquad section with its own state, so chunk boundaries are seamless. */
class Biquad {
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(
    private readonly b0: number,
    private readonly b1: number,
    private readonly b2: number,
    private readonly a1: number,
    private readonly a2: number
  ) {}

  static lowPass(cutoffHz: number, sampleRate: number, q: number): Biquad {
    const w = (2 * Math.PI * cutoffHz) / sampleRate;
    const alpha = Math.sin(w) / (2 * q);
    const cos = Math.cos(w);
    const a0 = 1 + alpha;
    return new Biquad((1 - cos) / 2 / a0, (1 - cos) / a0, (1 - cos) / 2 / a0, (-2 * cos) / a0, (1 - alpha) / a0);
  }

  static highPass(cutoffHz: number, sampleRate: number, q: number): Biquad {
    const w = (2 * Math.PI * cutoffHz) / sampleRate;
    const alpha = Math.sin(w) / (2 * q);
    const cos = Math.cos(w);
    const a0 = 1 + alpha;
    return new Biquad((1 + cos) / 2 / a0, -(1 + cos) / a0, (1 + cos) / 2 / a0, (-2 * cos) / a0, (1 - alpha) / a0);
  }

  processInPlace(samples: Float32Array): void {
    let { x1, x2, y1, y2 } = this;
    const { b0, b1, b2, a1, a2 } = this;
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i]!;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      samples[i] = y;
    }
    this.x1 = x1;
    this.x2 = x2;
    // Flush denormals: long silences would otherwise leave tiny values that slow every later sample.
    this.y1 = Math.abs(y1) < 1e-20 ? 0 : y1;
    this.y2 = Math.abs(y2) < 1e-20 ? 0 : y2;
  }
}

/** A streaming 300-3400 Hz band-pass; keeps its state across chunks. */
export class PhoneBandFilter {
  private readonly sections: Biquad[];

  constructor(readonly sampleRate: number) {
    if (sampleRate <= PHONE_BAND.highHz * 2)
      throw new RangeError(`phone band filter needs a rate above ${PHONE_BAND.highHz * 2} Hz`);
    this.sections = [
      ...BUTTERWORTH_Q4.map((q) => Biquad.highPass(PHONE_BAND.lowHz, sampleRate, q)),
      ...BUTTERWORTH_Q4.map((q) => Biquad.lowPass(PHONE_BAND.highHz, sampleRate, q)),
    ];
  }

  /** Filters a copy of `input` and returns it. */
  process(input: Float32Array): Float32Array {
    const out = Float32Array.from(input);
    for (const section of this.sections) section.processInPlace(out);
    return out;
  }
}

export class PcmConditioner {
  private stages: Resampler[] | undefined;
  private filter: PhoneBandFilter | undefined;
  private inRate: number | undefined;

  constructor(private readonly spec: OutputSpec, private readonly modules: WasmModules) {}

  /** Input rate of the stream, known after the first chunk. */
  get inputSampleRate(): number | undefined {
    return this.inRate;
  }

  /** Converts one chunk; returns the samples ready at the output rate (possibly none yet). */
  async process(chunk: PcmChunk): Promise<Float32Array> {
    validatePcmChunk(chunk);
    if (this.inRate === undefined) {
      this.inRate = chunk.sampleRate;
      await this.setUp(chunk.sampleRate);
    } else if (chunk.sampleRate !== this.inRate) {
      const drained = await this.switchInputRate(chunk.sampleRate);
      return joinFloat(drained, this.run(toMonoFloat(chunk), false));
    }
    return this.run(toMonoFloat(chunk), false);
  }

  /** Drains the resamplers at the end of the stream. */
  flush(): Float32Array {
    if (!this.stages) return new Float32Array(0);
    return this.run(new Float32Array(0), true);
  }

  /** Frees the resamplers' wasm memory (after an error or abort). */
  destroy(): void {
    for (const stage of this.stages ?? []) stage.destroy();
  }

  private async setUp(inRate: number): Promise<void> {
    const rates = this.spec.bandLimited ? [inRate, PHONE_RATE, this.spec.sampleRate] : [inRate, this.spec.sampleRate];
    const needsSpeex = rates.some((rate, i) => i > 0 && rate !== rates[i - 1]);
    const speex = needsSpeex ? await this.modules.speexResampler() : undefined;
    this.stages = rates.slice(1).map((rate, i) => createResampler(speex, rates[i]!, rate));
    if (this.spec.bandLimited) this.filter = new PhoneBandFilter(PHONE_RATE);
  }

  /** Drains the first resampler into the rest of the chain and replaces it with one for `inRate`. */
  private async switchInputRate(inRate: number): Promise<Float32Array> {
    const stages = this.stages!;
    const first = stages[0]!;
    let samples = first.flush();
    if (this.filter) samples = this.filter.process(samples);
    for (let i = 1; i < stages.length; i++) samples = stages[i]!.process(samples);
    const speex = inRate === first.outRate ? undefined : await this.modules.speexResampler();
    stages[0] = createResampler(speex, inRate, first.outRate);
    this.inRate = inRate;
    return samples;
  }

  private run(input: Float32Array, end: boolean): Float32Array {
    const stages = this.stages!;
    let samples = input;
    for (let i = 0; i < stages.length; i++) {
      const stage = stages[i]!;
      if (end) {
        const rest = stage.process(samples);
        const tail = stage.flush();
        samples = joinFloat(rest, tail);
      } else {
        samples = stage.process(samples);
      }
      if (i === 0 && this.filter) samples = this.filter.process(samples);
    }
    return samples;
  }
}

function joinFloat(a: Float32Array, b: Float32Array): Float32Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
