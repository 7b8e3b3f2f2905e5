/** Known test signals and the measurements the tests make on decoded audio. */
import type { PcmChunk } from '@formloom/core';

/** A sum of sines (Int16, mono), each `amplitude` of full scale. */
export function tones(frequencies: number[], seconds: number, sampleRate: number, amplitude = 0.3): Int16Array {
  const n = Math.round(seconds * sampleRate);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (const f of frequencies) v += Math.sin((2 * Math.PI * f * i) / sampleRate);
    out[i] = Math.round(32767 * amplitude * v);
  }
  return out;
}

/** Splits samples into uneven chunks (sizes cycle through primes from 1 to ~3,000), as engines deliver. */
export function* unevenChunks(samples: Int16Array | Float32Array, sampleRate: number, channels = 1): Generator<PcmChunk> {
  const sizes = [1, 317, 2_999, 64, 1_231, 7, 2_053, 499];
  let at = 0;
  for (let k = 0; at < samples.length; k++) {
    const n = sizes[k % sizes.length]! * channels;
    yield { samples: samples.slice(at, at + n), sampleRate, channels };
    at += n;
  }
}

/** Normalised power of `frequency` in `samples` (Goertzel), comparable across frequencies of one signal. */
export function goertzel(samples: Int16Array, sampleRate: number, frequency: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]! / 32768 + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - coeff * s1 * s2) / (samples.length * samples.length);
}

/** Dominant frequency by zero crossings over the middle of the signal (skips codec start/end effects). */
export function zeroCrossingFrequency(samples: Int16Array, sampleRate: number): number {
  const from = Math.floor(samples.length * 0.1);
  const to = Math.floor(samples.length * 0.9);
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return crossings / 2 / ((to - from) / sampleRate);
}

/** Root-mean-square level (0-1) of the middle of the signal. */
export function rms(samples: Int16Array): number {
  const from = Math.floor(samples.length * 0.1);
  const to = Math.floor(samples.length * 0.9);
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i]! / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}

export async function collect(pieces: AsyncIterable<Uint8Array>): Promise<{ bytes: Uint8Array; count: number }> {
  const all: Uint8Array[] = [];
  for await (const piece of pieces) all.push(piece);
  return { bytes: Buffer.concat(all), count: all.length };
}
