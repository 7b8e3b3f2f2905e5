/**
 * Streaming sample-rate conversion with the Speex resampler (wasm). The filter state lives in the wasm
 * instance across `process` calls, so chunk boundaries leave no clicks; `flush` drains the filter tail and
 * the output length is exact: round(input frames x outRate / inRate).
 */
import type { SpeexModule } from './wasm';

/** Speex quality 0-10; 6 is well above VoIP grade (3) and costs little at speech rates. */
export const RESAMPLER_QUALITY = 6;

/** Converts mono float samples from one rate to another, keeping state across calls. */
export interface Resampler {
  readonly inRate: number;
  readonly outRate: number;
  /** Resamples the next piece of input; returns every output sample ready so far. */
  process(input: Float32Array): Float32Array;
  /** Ends the stream: returns the remaining output. Further calls are errors. */
  flush(): Float32Array;
  /** Frees the wasm state; safe to call more than once. */
  destroy(): void;
}

/** A resampler for equal rates: passes samples through unchanged. */
class PassThrough implements Resampler {
  constructor(readonly inRate: number, readonly outRate: number) {}
  process(input: Float32Array): Float32Array {
    return input;
  }
  flush(): Float32Array {
    return new Float32Array(0);
  }
  destroy(): void {}
}

class SpeexResampler implements Resampler {
  private state: number;
  private readonly lenPtr: number; // two uint32: in_len, out_len
  private bufPtr = 0;
  private bufFrames = 0;
  private inTotal = 0;
  private outTotal = 0;
  private done = false;

  constructor(private readonly m: SpeexModule, readonly inRate: number, readonly outRate: number, quality: number) {
    const errPtr = m._malloc(4);
    try {
      this.state = m._speex_resampler_init(1, inRate, outRate, quality, errPtr);
      if (!this.state || m.HEAP32[errPtr >> 2] !== 0)
        throw new Error(`speex resampler init failed for ${inRate} -> ${outRate} Hz`);
    } finally {
      m._free(errPtr);
    }
    // Drop the filter's initial delay so output sample 0 lines up with input sample 0.
    m._speex_resampler_skip_zeros(this.state);
    this.lenPtr = m._malloc(8);
  }

  process(input: Float32Array): Float32Array {
    if (this.done) throw new Error('resampler already flushed');
    this.inTotal += input.length;
    return this.run(input);
  }

  flush(): Float32Array {
    if (this.done) throw new Error('resampler already flushed');
    this.done = true;
    // Push zeros through to drain the filter, then cut the output at the exact expected length.
    const tail = this.run(new Float32Array(this.m._speex_resampler_get_input_latency(this.state) * 2 + 16));
    const expected = Math.round((this.inTotal * this.outRate) / this.inRate);
    const keep = Math.max(0, Math.min(tail.length, expected - this.outTotal));
    this.outTotal += keep;
    this.destroy();
    return tail.subarray(0, keep);
  }

  destroy(): void {
    if (!this.state) return;
    this.m._speex_resampler_destroy(this.state);
    this.m._free(this.lenPtr);
    if (this.bufPtr) this.m._free(this.bufPtr);
    this.state = 0;
    this.bufPtr = 0;
  }

  private run(input: Float32Array): Float32Array {
    const m = this.m;
    const maxOut = Math.ceil((input.length * this.outRate) / this.inRate) + 64;
    this.ensureBuffer(input.length + maxOut);
    const inPtr = this.bufPtr;
    const outPtr = this.bufPtr + input.length * 4;
    // Views over wasm memory are re-read after each call that may grow it (malloc in ensureBuffer).
    m.HEAPF32.set(input, inPtr >> 2);
    const pieces: Float32Array[] = [];
    let offset = 0;
    while (offset < input.length) {
      m.HEAPU32[this.lenPtr >> 2] = input.length - offset;
      m.HEAPU32[(this.lenPtr >> 2) + 1] = maxOut;
      const err = m._speex_resampler_process_interleaved_float(
        this.state,
        inPtr + offset * 4,
        this.lenPtr,
        outPtr,
        this.lenPtr + 4
      );
      if (err !== 0) throw new Error(`speex resampler failed with code ${err}`);
      const consumed = m.HEAPU32[this.lenPtr >> 2]!;
      const produced = m.HEAPU32[(this.lenPtr >> 2) + 1]!;
      pieces.push(m.HEAPF32.slice(outPtr >> 2, (outPtr >> 2) + produced));
      offset += consumed;
      if (consumed === 0 && produced === 0) break;
    }
    const out = pieces.length === 1 ? pieces[0]! : concatFloat(pieces);
    if (!this.done) this.outTotal += out.length;
    return out;
  }

  private ensureBuffer(frames: number): void {
    if (frames <= this.bufFrames) return;
    if (this.bufPtr) this.m._free(this.bufPtr);
    this.bufFrames = Math.max(frames, 4096);
    this.bufPtr = this.m._malloc(this.bufFrames * 4);
    if (!this.bufPtr) throw new Error('speex resampler: out of wasm memory');
  }
}

export function concatFloat(pieces: Float32Array[]): Float32Array {
  let total = 0;
  for (const p of pieces) total += p.length;
  const out = new Float32Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A streaming resampler from `inRate` to `outRate` (a pass-through when they are equal). */
export function createResampler(
  speex: SpeexModule | undefined,
  inRate: number,
  outRate: number,
  quality = RESAMPLER_QUALITY
): Resampler {
  if (inRate === outRate) return new PassThrough(inRate, outRate);
  if (!speex) throw new Error('a Speex module is needed to resample');
  return new SpeexResampler(speex, inRate, outRate, quality);
}
