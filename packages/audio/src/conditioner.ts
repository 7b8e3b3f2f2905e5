/**
 * Brings engine PCM to what an encoder takes: mono float at the output rate, band-limited for `phone`.
 * `phone` resamples to 8 kHz, filters to 300-3400 Hz and, for formats with another fixed rate (`pcm_24k`),
 * resamples back up, so every `phone` output holds the same telephone-line signal.
 */
import type { PcmChunk } from '@formloom/core';
import type { OutputSpec } from './formats';
import { PhoneBandFilter } from './phone-filter';
import { toMonoFloat, validatePcmChunk } from './pcm';
import { createResampler, type Resampler } from './resampler';
import type { WasmModules } from './wasm';

const PHONE_RATE = 8_000;

export class PcmConditioner {
  private stages: Resampler[] | undefined;
  private filter: PhoneBandFilter | undefined;
  private inRate: number | undefined;

  constructor(
    private readonly spec: OutputSpec,
    private readonly modules: WasmModules,
  ) {}

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
      throw new RangeError(`PCM chunk sample rate changed within a stream (${this.inRate} -> ${chunk.sampleRate} Hz)`);
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
