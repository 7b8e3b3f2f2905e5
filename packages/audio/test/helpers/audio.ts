/**
 * Known test signals, the measurements made on decoded audio, and ffprobe/ffmpeg as the independent
 * judges of the encoders' output: what a real decoder makes of the bytes. ffprobe reads a temporary file
 * (it needs the size to report durations of headerless streams); ffmpeg decodes from a pipe. `.ci/run`
 * installs ffmpeg when missing.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PcmChunk } from '@formloom/core';
import type { AudioFormat } from '../../src';

/** Demuxer arguments for the raw formats, which carry no header to probe. */
function inputArgs(format: AudioFormat): string[] {
  if (format === 'mulaw_8k') return ['-f', 'mulaw', '-ar', '8000', '-ac', '1'];
  if (format === 'pcm_24k') return ['-f', 's16le', '-ar', '24000', '-ac', '1'];
  return [];
}

function run(command: string, args: string[], input: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} exited with ${code}: ${Buffer.concat(err).toString().trim()}`));
    });
    // ffprobe may stop reading before the end; a closed pipe is not an error here.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

export interface Probe {
  codec: string;
  sampleRate: number;
  channels: number;
  /** Seconds, as ffprobe reports for the stream or the container. */
  duration: number;
}

export async function probe(bytes: Uint8Array, format: AudioFormat): Promise<Probe> {
  const file = join(tmpdir(), `formloom-audio-${randomUUID()}`);
  await writeFile(file, bytes);
  let json: Buffer;
  try {
    json = await run(
      'ffprobe',
      [
        '-v',
        'error',
        ...inputArgs(format),
        '-show_entries',
        'stream=codec_name,sample_rate,channels,duration:format=duration',
        '-of',
        'json',
        '-i',
        file,
      ],
      new Uint8Array(0)
    );
  } finally {
    await rm(file, { force: true });
  }
  const parsed = JSON.parse(json.toString()) as {
    streams: { codec_name: string; sample_rate: string; channels: number; duration?: string }[];
    format?: { duration?: string };
  };
  const stream = parsed.streams[0];
  if (!stream) throw new Error('ffprobe found no audio stream');
  return {
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    duration: Number(parsed.format?.duration ?? stream.duration ?? NaN),
  };
}

/** Decodes to mono signed 16-bit samples at `rate` (the file's own rate when omitted). */
export async function decode(bytes: Uint8Array, format: AudioFormat, rate?: number): Promise<Int16Array> {
  const raw = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      ...inputArgs(format),
      '-i',
      'pipe:0',
      '-ac',
      '1',
      ...(rate ? ['-ar', String(rate)] : []),
      '-f',
      's16le',
      'pipe:1',
    ],
    bytes
  );
  return new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
}

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
export function* unevenChunks(
  samples: Int16Array | Float32Array,
  sampleRate: number,
  channels = 1
): Generator<PcmChunk> {
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
