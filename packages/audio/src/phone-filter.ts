/**
 * The telephone band of `phone` quality: a 4th-order Butterworth high-pass at 300 Hz and a 4th-order
 * Butterworth low-pass at 3400 Hz, applied at 8 kHz after the resampler has removed everything above 4 kHz.
 * Coefficients follow the RBJ audio-EQ cookbook (bilinear transform).
 */
import { PHONE_BAND } from './formats';

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
    private readonly a2: number,
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
    if (sampleRate <= PHONE_BAND.highHz * 2) throw new RangeError(`phone band filter needs a rate above ${PHONE_BAND.highHz * 2} Hz`);
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
