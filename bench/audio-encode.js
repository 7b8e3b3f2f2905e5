'use strict';
// `node bench/audio-encode.js [seconds]` (after `npx tsc -b`): encode speed of @formloom/audio in x real
// time per format and quality, on one core. The input is speech-like: a 22,050 Hz (eSpeak NG's rate) mix of
// tones with a syllable-rate envelope, fed in 2,205-sample chunks like an engine's sentences. Each case runs
// once to warm up (wasm compile, the MP3 worker), then is timed on a fresh encoder. Wall time suffers on a
// busy machine; CPU time (this process and its threads, so the MP3 worker is included) is steadier.
// See docs/voice.md.
const { createAudioCodecs, AUDIO_FORMATS, AUDIO_QUALITIES } = require('../packages/audio/dist/src');

const RATE = 22_050;
const seconds = Number(process.argv[2] ?? 60);

function speechLike(totalSeconds) {
  const n = Math.round(totalSeconds * RATE);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    const v =
      Math.sin(2 * Math.PI * 140 * t) + 0.5 * Math.sin(2 * Math.PI * 700 * t) + 0.25 * Math.sin(2 * Math.PI * 2400 * t);
    out[i] = Math.round(8000 * envelope * v);
  }
  return out;
}

function* chunks(samples) {
  for (let at = 0; at < samples.length; at += 2205)
    yield { samples: samples.subarray(at, at + 2205), sampleRate: RATE, channels: 1 };
}

async function run() {
  const codecs = createAudioCodecs();
  const warm = speechLike(1);
  const input = speechLike(seconds);
  const rows = [];
  for (const format of AUDIO_FORMATS) {
    for (const quality of AUDIO_QUALITIES) {
      await codecs.encodeToBuffer(chunks(warm), { format, quality });
      const start = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      const out = await codecs.encodeToBuffer(chunks(input), { format, quality });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const cpu = process.cpuUsage(cpuStart);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      // Fixed cost of one file: a 0.1 s input, averaged over 10 encoders.
      const shortStart = process.cpuUsage();
      for (let i = 0; i < 10; i++) await codecs.encodeToBuffer(chunks(warm.subarray(0, 2205)), { format, quality });
      const shortCpu = process.cpuUsage(shortStart);
      rows.push({
        format,
        quality,
        'CPU ms per file (start-up)': Math.round((shortCpu.user + shortCpu.system) / 10_000),
        'x real time (wall)': `${((seconds * 1000) / ms).toFixed(0)}x`,
        'x real time per CPU second': `${((seconds * 1000) / cpuMs).toFixed(0)}x`,
        kbytes: Math.round(out.bytes.length / 1024),
      });
    }
  }
  console.log(`@formloom/audio encode speed, ${seconds} s of 22,050 Hz mono input (Node ${process.version})`);
  console.table(rows);
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
