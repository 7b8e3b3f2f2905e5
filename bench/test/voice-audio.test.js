'use strict';
// Reading streamed audio without a decoder (bench/lib/voice-audio.js): the first audible PCM window, MP3
// frames and their side info, WAV in and out, resampling. The MP3 case is encoded by @formloom/audio.
const test = require('ava');
const { PcmSoundDetector, Mp3SoundDetector, mp3Frame, wavFile, parseWav, resample } = require('../lib/voice-audio');

const RATE = 24000;
/** `silentMs` of zeros, then a 440 Hz tone at a quarter of full scale for `toneMs`. */
function silenceThenTone(silentMs, toneMs, rate = RATE) {
  const silent = Math.round((silentMs * rate) / 1000);
  const out = new Int16Array(silent + Math.round((toneMs * rate) / 1000));
  for (let i = silent; i < out.length; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (i - silent)) / rate));
  return out;
}
const bytesOf = (samples) => Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);

test('PCM: the first audible 10 ms window, whatever the piece sizes (odd byte counts included)', (t) => {
  const bytes = bytesOf(silenceThenTone(300, 100));
  for (const piece of [1, 7, 480, 4096]) {
    const d = new PcmSoundDetector(RATE);
    let found = false;
    for (let at = 0; at < bytes.length && !found; at += piece) found = d.push(bytes.subarray(at, at + piece));
    t.true(found);
    t.is(d.sample, 300 * 24); // 7,200: the window starting where the tone starts
  }
});

test('PCM: quiet noise under -40 dBFS is silence', (t) => {
  const quiet = new Int16Array(RATE).map((_, i) => (i % 2 ? 200 : -200));
  const d = new PcmSoundDetector(RATE);
  t.false(d.push(bytesOf(quiet)));
  t.is(d.sample, null);
});

test('MP3: frames are counted and the first frame coding sound is found, in any piece sizes', async (t) => {
  const { createAudioCodecs } = require('../../packages/audio/dist/src');
  const codecs = createAudioCodecs();
  const samples = silenceThenTone(500, 500);
  const { bytes } = await codecs.encodeToBuffer([{ samples, sampleRate: RATE, channels: 1 }], { format: 'mp3', quality: 'standard' });
  const first = mp3Frame(Buffer.from(bytes), 0);
  t.is(first.sampleRate, 24000);
  t.is(first.samples, 576);
  t.is(first.bits, 0); // LAME's delay and the leading silence: no spectral data
  for (const piece of [13, 1000, bytes.length]) {
    const d = new Mp3SoundDetector();
    let found = false;
    for (let at = 0; at < bytes.length && !found; at += piece) found = d.push(Buffer.from(bytes.subarray(at, at + piece)));
    t.true(found);
    // The tone starts at sample 12,000, frame 20.8 of the input, plus the encoder's delay of about 2 frames.
    t.true(d.soundFrame >= 20 && d.soundFrame <= 24, `sound in frame ${d.soundFrame}`);
  }
  const silentOnly = await codecs.encodeToBuffer([{ samples: new Int16Array(RATE), sampleRate: RATE, channels: 1 }], { format: 'mp3', quality: 'standard' });
  const d = new Mp3SoundDetector();
  t.false(d.push(Buffer.from(silentOnly.bytes)));
  t.true(d.frames >= 40);
});

test('WAV: written and read back; resampling keeps a tone and the length ratio', (t) => {
  const samples = silenceThenTone(100, 400);
  const back = parseWav(wavFile(samples, RATE));
  t.is(back.sampleRate, RATE);
  t.deepEqual(Array.from(back.samples), Array.from(samples));
  const down = resample(samples, RATE, 16000);
  t.is(down.length, Math.round((samples.length * 16000) / RATE));
  const d = new PcmSoundDetector(16000);
  t.true(d.push(bytesOf(down)));
  t.true(Math.abs(d.sample - 1600) <= 160); // 100 ms in, within one window
  // Amplitude is kept (a 440 Hz tone is far below the cut-off).
  const peak = down.slice(2000, 6000).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  t.true(peak > 7500 && peak < 8500, `peak ${peak}`);
  t.throws(() => parseWav(Buffer.from('nothing here')), { message: /not a WAV/ });
});
