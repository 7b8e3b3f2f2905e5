/**
 * PCM helpers: conversion of engine chunks to the mono float samples the encoders take, 16-bit packing,
 * silence, and the sample/millisecond accounting behind `duration_ms`, `start_ms` and `end_ms`.
 */
import type { PcmChunk } from '@formloom/core';

/** Mono samples in [-1, 1] at a known rate: the form every stage inside this package passes on. */
export interface MonoPcm {
  samples: Float32Array;
  sampleRate: number;
}

/** Rejects chunks no encoder can handle, with a message naming the field. */
export function validatePcmChunk(chunk: PcmChunk): void {
  if (!(chunk.samples instanceof Int16Array) && !(chunk.samples instanceof Float32Array)) {
    throw new TypeError('PCM chunk samples must be an Int16Array or a Float32Array');
  }
  if (!Number.isInteger(chunk.sampleRate) || chunk.sampleRate < 1_000 || chunk.sampleRate > 384_000) {
    throw new RangeError(`PCM chunk sample rate must be an integer from 1000 to 384000 Hz, got ${chunk.sampleRate}`);
  }
  if (!Number.isInteger(chunk.channels) || chunk.channels < 1 || chunk.channels > 8) {
    throw new RangeError(`PCM chunk channel count must be an integer from 1 to 8, got ${chunk.channels}`);
  }
  if (chunk.samples.length % chunk.channels !== 0) {
    throw new RangeError('PCM chunk sample count must be a multiple of its channel count');
  }
}

/** Number of sample frames (samples per channel) in a chunk. */
export function frameCount(chunk: PcmChunk): number {
  return chunk.samples.length / chunk.channels;
}

/** Converts a chunk to mono float: channels are averaged, Int16 is scaled to [-1, 1). */
export function toMonoFloat(chunk: PcmChunk): Float32Array {
  const { samples, channels } = chunk;
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  if (channels === 1) {
    if (samples instanceof Float32Array) return samples;
    const out = new Float32Array(samples.length);
    for (let i = 0; i < samples.length; i++) out[i] = samples[i]! * scale;
    return out;
  }
  const frames = samples.length / channels;
  const out = new Float32Array(frames);
  const factor = scale / channels;
  for (let f = 0, j = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[j++]!;
    out[f] = sum * factor;
  }
  return out;
}

/** One float sample to signed 16-bit, clipped, rounded. */
export function floatToInt16(sample: number): number {
  const v = Math.round(sample * 32767);
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}

/** Packs float samples as signed 16-bit little-endian bytes (the `pcm_24k` and WAV payload). */
export function toS16leBytes(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, floatToInt16(samples[i]!), true);
  return bytes;
}

/** Float samples as an Int16Array in platform order (for codecs that take 16-bit input). */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = floatToInt16(samples[i]!);
  return out;
}

/**
 * Milliseconds of audio in `samples` sample frames at `sampleRate`, rounded to the nearest millisecond.
 * Sum samples, not milliseconds, across chunks: rounding each chunk would drift.
 */
export function samplesToMs(samples: number, sampleRate: number): number {
  return Math.round((samples * 1000) / sampleRate);
}

/** Sample frames in `ms` milliseconds at `sampleRate`, rounded to the nearest frame. */
export function msToSamples(ms: number, sampleRate: number): number {
  return Math.round((ms * sampleRate) / 1000);
}

/**
 * A silent mono chunk of `ms` milliseconds (a script's `pause_ms`), as Int16 at `sampleRate`. Negative or
 * non-finite durations are rejected; 0 gives an empty chunk.
 */
export function silence(ms: number, sampleRate: number): PcmChunk {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`silence duration must be a non-negative number of ms, got ${ms}`);
  return { samples: new Int16Array(msToSamples(ms, sampleRate)), sampleRate, channels: 1 };
}

/**
 * Keeps the running position of a stream of chunks, in sample frames at the input rate, so that a script's
 * lines get `start_ms`/`end_ms` and the whole generation its `duration_ms` without rounding drift.
 */
export class SampleClock {
  private frames = 0;
  private rate: number | undefined;

  /** Adds a chunk; returns the chunk's start and end in ms from the beginning of the stream. */
  add(chunk: PcmChunk): { startMs: number; endMs: number } {
    if (this.rate !== undefined && chunk.sampleRate !== this.rate) {
      // Different rates in one stream: carry the position over to the new rate exactly enough for ms.
      this.frames = (this.frames * chunk.sampleRate) / this.rate;
    }
    this.rate = chunk.sampleRate;
    const startMs = this.positionMs;
    this.frames += frameCount(chunk);
    return { startMs, endMs: this.positionMs };
  }

  /** Milliseconds counted so far. */
  get positionMs(): number {
    return this.rate === undefined ? 0 : samplesToMs(this.frames, this.rate);
  }
}
