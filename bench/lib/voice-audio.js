'use strict';
// Reading the audio the voice API sends, without a decoder: where the first audible sound is in a raw PCM
// stream (pcm_24k: signed 16-bit little-endian mono) or in an MP3 stream (frame headers and side info), WAV
// files in and out, and a resampler to the 16 kHz that pocketsphinx's English model expects.

/** A 10 ms window whose RMS reaches this (-40 dBFS of 16-bit audio) is sound; quieter is silence. */
const LOUD_RMS = 328;

/**
 * Finds the first audible 10 ms window of a pcm_s16le mono stream fed in arbitrary pieces (odd byte counts
 * included). `push(bytes)` returns true once found; `sample` is then the index of that window's first sample.
 */
class PcmSoundDetector {
  constructor(sampleRate) {
    this.window = Math.max(1, Math.round(sampleRate / 100));
    this.sample = null;
    this.samples = 0;
    this.sumSq = 0;
    this.inWindow = 0;
    this.odd = null;
  }

  push(bytes) {
    if (this.sample !== null) return true;
    let buf = this.odd ? Buffer.concat([this.odd, bytes]) : bytes;
    this.odd = buf.length % 2 ? buf.subarray(buf.length - 1) : null;
    const n = buf.length >> 1;
    for (let k = 0; k < n; k++) {
      const v = buf.readInt16LE(k * 2);
      this.sumSq += v * v;
      if (++this.inWindow === this.window) {
        if (Math.sqrt(this.sumSq / this.window) >= LOUD_RMS) {
          this.sample = this.samples + k + 1 - this.window;
          return true;
        }
        this.sumSq = 0;
        this.inWindow = 0;
      }
    }
    this.samples += n;
    return false;
  }
}

const MP3_BITRATES = {
  1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320], // MPEG-1 layer III
  2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160], // MPEG-2/2.5 layer III
};
const MP3_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * Parses one MP3 (layer III) frame header at `buf[at]`: { length, samples, sampleRate, bits } or null.
 * `bits` is the frame's Huffman-coded size (part2_3_length summed over granules and channels, from the side
 * info): 0 for a frame of silence, which LAME codes without spectral data.
 */
function mp3Frame(buf, at) {
  if (at + 4 > buf.length || buf[at] !== 0xff || (buf[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (buf[at + 1] >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
  if (version === 1 || ((buf[at + 1] >> 1) & 3) !== 1) return null; // reserved, or not layer III
  const mpeg1 = version === 3;
  const kbps = MP3_BITRATES[mpeg1 ? 1 : 2][buf[at + 2] >> 4];
  const sampleRate = MP3_RATES[version]?.[(buf[at + 2] >> 2) & 3];
  if (!kbps || !sampleRate) return null;
  const samples = mpeg1 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + ((buf[at + 2] >> 1) & 1);
  const mono = buf[at + 3] >> 6 === 3;
  const side = at + 4 + (buf[at + 1] & 1 ? 0 : 2); // a 16-bit CRC follows when the protection bit is 0
  const read = (bitOffset, n) => {
    let v = 0;
    for (let b = 0; b < n; b++) {
      const bit = bitOffset + b;
      v = (v << 1) | ((buf[side + (bit >> 3)] >> (7 - (bit & 7))) & 1);
    }
    return v;
  };
  // Side info: MPEG-1 has 2 granules after 9+5(mono)/3(stereo)+4/8 bits; MPEG-2 1 granule after 8+1/2 bits.
  const channels = mono ? 1 : 2;
  const start = mpeg1 ? 9 + (mono ? 5 : 3) + 4 * channels : 8 + (mono ? 1 : 2);
  const granuleBits = mpeg1 ? 59 : 63;
  let bits = 0;
  if (side + 17 <= buf.length) {
    for (let g = 0; g < (mpeg1 ? 2 : 1); g++) for (let c = 0; c < channels; c++) bits += read(start + (g * channels + c) * granuleBits, 12);
  }
  return { length, samples, sampleRate, bits };
}

/**
 * Follows an MP3 stream fed in arbitrary pieces. `push(bytes)` returns true once a whole frame with coded
 * sound (side info `bits` > 0) has arrived; `frames` counts whole frames so far, `soundFrame` is the index of
 * that first sounding frame. Bytes before the first frame sync (an ID3 tag) are skipped.
 */
class Mp3SoundDetector {
  constructor() {
    this.pending = Buffer.alloc(0);
    this.frames = 0;
    this.soundFrame = null;
    this.sampleRate = null;
  }

  push(bytes) {
    if (this.soundFrame !== null) return true;
    this.pending = Buffer.concat([this.pending, bytes]);
    let at = 0;
    for (;;) {
      const f = mp3Frame(this.pending, at);
      if (!f) {
        if (this.frames === 0 && at + 4 <= this.pending.length) {
          at++; // still looking for the first sync
          continue;
        }
        break;
      }
      if (at + f.length > this.pending.length) break;
      this.sampleRate = f.sampleRate;
      this.frames++;
      at += f.length;
      if (f.bits > 0) {
        this.soundFrame = this.frames - 1;
        return true;
      }
    }
    this.pending = this.pending.subarray(at);
    return false;
  }
}

/** A canonical 44-byte-header WAV of 16-bit mono `samples` (Int16Array). */
function wavFile(samples, sampleRate) {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + samples.length * 2, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(samples.length * 2, 40);
  return Buffer.concat([h, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

/** The samples of a 16-bit mono WAV (walks the RIFF chunks; an unknown-length data chunk runs to the end). */
function parseWav(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let sampleRate = null;
  for (let at = 12; at + 8 <= buf.length; ) {
    const id = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      if (buf.readUInt16LE(at + 8) !== 1 || buf.readUInt16LE(at + 10) !== 1 || buf.readUInt16LE(at + 22) !== 16) throw new Error('not 16-bit mono PCM');
      sampleRate = buf.readUInt32LE(at + 12);
    } else if (id === 'data') {
      const end = Math.min(buf.length, at + 8 + size);
      const data = Buffer.from(buf.subarray(at + 8, end - ((end - at - 8) % 2)));
      return { samples: new Int16Array(data.buffer, data.byteOffset, data.length / 2), sampleRate };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('WAV file without a data chunk');
}

/**
 * Band-limited resampling of 16-bit mono samples (windowed sinc, Blackman window, 32 zero crossings, cut off
 * at 0.9 x the lower Nyquist frequency). Slow (a few x real time per MHz of taps) but plenty for a few
 * minutes of speech in a benchmark.
 */
function resample(samples, inRate, outRate) {
  if (inRate === outRate) return samples;
  const ratio = outRate / inRate;
  const cutoff = 0.9 * Math.min(1, ratio); // of the input Nyquist frequency
  const half = Math.ceil(32 / cutoff);
  const out = new Int16Array(Math.round(samples.length * ratio));
  for (let n = 0; n < out.length; n++) {
    const center = n / ratio;
    const first = Math.max(0, Math.ceil(center - half));
    const last = Math.min(samples.length - 1, Math.floor(center + half));
    let acc = 0;
    for (let k = first; k <= last; k++) {
      const x = k - center;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * cutoff * x) / (Math.PI * cutoff * x);
      const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / half) + 0.08 * Math.cos((2 * Math.PI * x) / half);
      acc += samples[k] * cutoff * sinc * w;
    }
    out[n] = Math.max(-32768, Math.min(32767, Math.round(acc)));
  }
  return out;
}

module.exports = { LOUD_RMS, PcmSoundDetector, Mp3SoundDetector, mp3Frame, wavFile, parseWav, resample };
