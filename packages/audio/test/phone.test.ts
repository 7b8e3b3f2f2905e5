/**
 * `phone` quality sounds like a telephone line: 300-3400 Hz. A 6 kHz tone must be gone from every phone
 * output (and still present at `standard`, where the format can carry it), a 150 Hz tone strongly damped,
 * and 440 Hz kept.
 */
import test from 'ava';
import { type AudioFormat, createAudioCodecs } from '../src';
import { decode } from './helpers/ffmpeg';
import { goertzel, tones, unevenChunks } from './helpers/signals';

const INPUT_RATE = 22_050;
const DECODE_RATE = 48_000;
const mix = tones([150, 440, 6_000], 1.5, INPUT_RATE, 0.25);
const codecs = createAudioCodecs();

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
