/**
 * ffprobe/ffmpeg as the independent judges of the encoders' output: what a real decoder makes of the
 * bytes. ffprobe reads a temporary file (it needs the size to report durations of headerless streams);
 * ffmpeg decodes from a pipe. `.ci/run` installs ffmpeg when missing.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      ['-v', 'error', ...inputArgs(format), '-show_entries', 'stream=codec_name,sample_rate,channels,duration:format=duration', '-of', 'json', '-i', file],
      new Uint8Array(0),
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
    ['-v', 'error', ...inputArgs(format), '-i', 'pipe:0', '-ac', '1', ...(rate ? ['-ar', String(rate)] : []), '-f', 's16le', 'pipe:1'],
    bytes,
  );
  return new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
}
