/**
 * Every format at every quality: a 440 Hz sine of 1.5 s at 22,050 Hz, fed in uneven chunks, must come out
 * as a file ffprobe identifies (codec, rate, channels, duration) and ffmpeg decodes back to a 440 Hz tone
 * of the right length, both as one buffer and as the concatenation of the streamed pieces.
 *
 * `phone` quality sounds like a telephone line: 300-3400 Hz. A 6 kHz tone must be gone from every phone
 * output (and still present at `standard`, where the format can carry it), a 150 Hz tone strongly damped,
 * and 440 Hz kept.
 */
import test from 'ava';
import {
  AUDIO_FORMATS,
  AUDIO_QUALITIES,
  type AudioFormat,
  type AudioQuality,
  createAudioCodecs,
  outputSpec,
} from '../src';
import { collect, decode, goertzel, probe, tones, unevenChunks, zeroCrossingFrequency } from './helpers/audio';

const INPUT_RATE = 22_050;
const SECONDS = 1.5;
const sine = tones([440], SECONDS, INPUT_RATE);
const codecs = createAudioCodecs();

const CODEC: Record<AudioFormat, string> = {
  mp3: 'mp3',
  wav: 'pcm_s16le',
  ogg_opus: 'opus',
  mulaw_8k: 'pcm_mulaw',
  pcm_24k: 'pcm_s16le',
};

/**
 * Extra length a reader may see. MP3 has no Xing header to carry LAME's delay and padding (up to ~160 ms
 * at 8 kHz). ffprobe's container duration of Ogg Opus includes the 6.5 ms pre-skip, which decoders drop.
 */
function allowedExtra(format: AudioFormat, decoded: boolean): number {
  if (format === 'mp3') return 0.2;
  return format === 'ogg_opus' && !decoded ? 0.01 : 0.005;
}

async function checkFile(
  t: import('ava').ExecutionContext,
  bytes: Uint8Array,
  format: AudioFormat,
  quality: AudioQuality,
  streamed: boolean
) {
  const spec = outputSpec(format, quality);
  const info = await probe(bytes, format);
  t.is(info.codec, CODEC[format]);
  t.is(info.channels, 1);
  // Opus always decodes at 48 kHz; the encoded band is the quality's rate (OpusHead's input rate).
  t.is(info.sampleRate, format === 'ogg_opus' ? 48_000 : spec.sampleRate);
  if (!(streamed && format === 'wav')) {
    // A streamed WAV declares an unknown length; only the patched file states its duration.
    t.true(
      info.duration >= SECONDS - 0.005 && info.duration <= SECONDS + allowedExtra(format, false),
      `duration ${info.duration}`
    );
  }
  const pcm = await decode(bytes, format);
  const decodedSeconds = pcm.length / info.sampleRate;
  t.true(
    decodedSeconds >= SECONDS - 0.005 && decodedSeconds <= SECONDS + allowedExtra(format, true),
    `decoded ${decodedSeconds} s`
  );
  const frequency = zeroCrossingFrequency(pcm, info.sampleRate);
  t.true(Math.abs(frequency - 440) < 5, `dominant frequency ${frequency} Hz`);
}

for (const format of AUDIO_FORMATS) {
  for (const quality of AUDIO_QUALITIES) {
    test(`${format} at ${quality}: one buffer is a valid file holding the 440 Hz tone for 1.5 s`, async (t) => {
      const encoded = await codecs.encodeToBuffer(unevenChunks(sine, INPUT_RATE), { format, quality });
      t.is(encoded.spec.sampleRate, outputSpec(format, quality).sampleRate);
      t.is(encoded.durationMs, 1500);
      await checkFile(t, encoded.bytes, format, quality, false);
    });

    test(`${format} at ${quality}: the streamed pieces concatenated are a valid file`, async (t) => {
      async function* engine() {
        // An async source, like a speech engine, with uneven chunks.
        for (const chunk of unevenChunks(sine, INPUT_RATE)) yield chunk;
      }
      const { bytes, count } = await collect(codecs.encode(engine(), { format, quality }));
      t.true(count > 1, `expected several pieces, got ${count}`);
      await checkFile(t, bytes, format, quality, true);
    });
  }
}

test('mulaw_8k defaults to phone and takes the ulaw_8000 alias; other formats default to standard', async (t) => {
  const alias = await codecs.encodeToBuffer(unevenChunks(sine, INPUT_RATE), { format: 'ulaw_8000' });
  t.is(alias.spec.format, 'mulaw_8k');
  t.is(alias.spec.quality, 'phone');
  t.true(alias.spec.bandLimited);
  t.is(alias.bytes.length, 12_000); // 1.5 s at 8,000 one-byte samples a second
  const mp3 = codecs.createEncoder({ format: 'mp3' });
  t.is(mp3.spec.quality, 'standard');
  t.is(mp3.contentType, 'audio/mpeg');
  mp3.abort();
});

test('stereo Float32 input at 16 kHz is mixed down to mono and resampled', async (t) => {
  const rate = 16_000;
  const mono = tones([440], SECONDS, rate);
  const stereo = new Float32Array(mono.length * 2);
  for (let i = 0; i < mono.length; i++) {
    stereo[2 * i] = mono[i]! / 32768;
    stereo[2 * i + 1] = mono[i]! / 32768;
  }
  const encoded = await codecs.encodeToBuffer(unevenChunks(stereo, rate, 2), { format: 'wav', quality: 'studio' });
  const info = await probe(encoded.bytes, 'wav');
  t.is(info.channels, 1);
  t.is(info.sampleRate, 48_000);
  const pcm = await decode(encoded.bytes, 'wav');
  t.is(pcm.length, 72_000);
  t.true(Math.abs(zeroCrossingFrequency(pcm, 48_000) - 440) < 5);
});

test('a script mixing engines at 22,050, 16,000 and 24,000 Hz is resampled without gaps at every step', async (t) => {
  const parts = [22_050, 16_000, 24_000, 22_050].map((rate) => ({ rate, samples: tones([440], 0.5, rate) }));
  const chunks = parts.flatMap(({ rate, samples }) => [...unevenChunks(samples, rate)]);
  for (const quality of ['standard', 'phone'] as const) {
    const encoded = await codecs.encodeToBuffer(chunks, { format: 'wav', quality });
    t.is(encoded.durationMs, 2000);
    const pcm = await decode(encoded.bytes, 'wav');
    const rate = outputSpec('wav', quality).sampleRate;
    t.is(pcm.length, 2 * rate);
    // Each quarter (one engine's part) holds the tone; phase jumps at the joins cost at most a crossing.
    for (let q = 0; q < 4; q++) {
      const part = pcm.subarray((q * rate) / 2, ((q + 1) * rate) / 2);
      t.true(Math.abs(zeroCrossingFrequency(part, rate) - 440) < 10, `${quality} part ${q}`);
    }
  }
});

const DECODE_RATE = 48_000;
const mix = tones([150, 440, 6_000], 1.5, INPUT_RATE, 0.25);

async function bandPowers(format: AudioFormat, quality: 'phone' | 'standard') {
  const encoded = await codecs.encodeToBuffer(unevenChunks(mix, INPUT_RATE), { format, quality });
  const pcm = await decode(encoded.bytes, format, DECODE_RATE);
  // Skip codec start-up and tail.
  const middle = pcm.subarray(Math.floor(pcm.length * 0.1), Math.floor(pcm.length * 0.9));
  return {
    low: goertzel(middle, DECODE_RATE, 150),
    voice: goertzel(middle, DECODE_RATE, 440),
    high: goertzel(middle, DECODE_RATE, 6_000),
  };
}

for (const format of ['mp3', 'wav', 'ogg_opus', 'pcm_24k', 'mulaw_8k'] as const) {
  test(`${format} at phone removes a 6 kHz tone, damps 150 Hz and keeps 440 Hz`, async (t) => {
    const p = await bandPowers(format, 'phone');
    t.true(p.voice > 1e-3, `440 Hz power ${p.voice}`);
    t.true(p.high / p.voice < 1e-3, `6 kHz at ${(10 * Math.log10(p.high / p.voice)).toFixed(1)} dB of 440 Hz`);
    t.true(p.low / p.voice < 0.05, `150 Hz at ${(10 * Math.log10(p.low / p.voice)).toFixed(1)} dB of 440 Hz`);
  });
}

for (const format of ['mp3', 'wav', 'ogg_opus', 'pcm_24k'] as const) {
  test(`${format} at standard keeps the 6 kHz and 150 Hz tones`, async (t) => {
    const p = await bandPowers(format, 'standard');
    t.true(p.high / p.voice > 0.3, `6 kHz at ${(10 * Math.log10(p.high / p.voice)).toFixed(1)} dB of 440 Hz`);
    t.true(p.low / p.voice > 0.3, `150 Hz at ${(10 * Math.log10(p.low / p.voice)).toFixed(1)} dB of 440 Hz`);
  });
}
