/**
 * The uncompressed formats: `pcm_24k` (raw s16le), `mulaw_8k` (raw G.711 mu-law) and `wav` (RIFF s16le).
 *
 * WAV of unknown length: the header goes out first with both RIFF and data sizes at 0xFFFFFFFF, the
 * usual marker of a streamed WAV that readers (ffmpeg, browsers) play to the end of the data. When the
 * whole file is kept (a stored generation, `encodeToBuffer`), `finalHeader()` gives the 44-byte header
 * with the exact sizes to write over the first 44 bytes. See docs/decisions.md.
 */
import { floatToInt16, toS16leBytes } from '../pcm';
import { type Codec, EMPTY } from './codec';

const STREAMING_SIZE = 0xffff_ffff;
export const WAV_HEADER_BYTES = 44;

/** Raw signed 16-bit little-endian mono samples. */
export class S16leCodec implements Codec {
  async write(samples: Float32Array): Promise<Uint8Array> {
    return toS16leBytes(samples);
  }
  async finish(): Promise<Uint8Array> {
    return EMPTY;
  }
  close(): void {}
}

/** G.711 mu-law of one signed 16-bit sample (ITU-T G.711, with the usual 0x84 bias and 14-bit clip). */
export function linearToMulaw(sample: number): number {
  const BIAS = 0x84;
  const CLIP = 32635;
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** Raw G.711 mu-law bytes, one per sample (8 kHz by the format's definition). */
export class MulawCodec implements Codec {
  async write(samples: Float32Array): Promise<Uint8Array> {
    const out = new Uint8Array(samples.length);
    for (let i = 0; i < samples.length; i++) out[i] = linearToMulaw(floatToInt16(samples[i]!));
    return out;
  }
  async finish(): Promise<Uint8Array> {
    return EMPTY;
  }
  close(): void {}
}

/** The 44-byte header of a mono 16-bit PCM WAV file; `dataBytes` undefined writes the streaming sizes. */
export function wavHeader(sampleRate: number, dataBytes?: number): Uint8Array {
  const header = new Uint8Array(WAV_HEADER_BYTES);
  const v = new DataView(header.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) header[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, dataBytes === undefined ? STREAMING_SIZE : 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true); // byte rate
  v.setUint16(32, 2, true); // block align
  v.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  v.setUint32(40, dataBytes === undefined ? STREAMING_SIZE : dataBytes, true);
  return header;
}

/** RIFF/WAVE, mono signed 16-bit. */
export class WavCodec implements Codec {
  private headerSent = false;
  private dataBytes = 0;

  constructor(private readonly sampleRate: number) {}

  async write(samples: Float32Array): Promise<Uint8Array> {
    const data = toS16leBytes(samples);
    this.dataBytes += data.length;
    if (this.headerSent) return data;
    this.headerSent = true;
    const out = new Uint8Array(WAV_HEADER_BYTES + data.length);
    out.set(wavHeader(this.sampleRate));
    out.set(data, WAV_HEADER_BYTES);
    return out;
  }

  /** With no samples at all, the only output is the header, already with its exact (zero) sizes. */
  async finish(): Promise<Uint8Array> {
    if (this.headerSent) return EMPTY;
    this.headerSent = true;
    return wavHeader(this.sampleRate, 0);
  }

  finalHeader(): Uint8Array {
    return wavHeader(this.sampleRate, this.dataBytes);
  }

  close(): void {}
}
