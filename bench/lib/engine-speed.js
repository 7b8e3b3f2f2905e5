'use strict';
// Speed of the speech engines and the MP3 encoder in this process, in x real time (seconds of audio per
// second): used by the voice family (bench/scenarios/voice.js) and by the one-engine scripts
// (bench/speech-flite.js, bench/speech-espeak.js). CPU time counts this process, its threads (eSpeak's
// the MP3 encoder's LAME worker) and its live child processes (Flite's and eSpeak's pools, also those started
// during the measurement), read from /proc.
const { processCpuMs, childPids } = require('./cpu');

/** A CPU clock over this process and its children: `stop()` gives seconds used since `start`. */
function cpuClock() {
  const kids = childPids(process.pid);
  const kids0 = kids.map(processCpuMs);
  const self0 = process.cpuUsage();
  return {
    stop() {
      const self = process.cpuUsage(self0);
      let ms = (self.user + self.system) / 1000;
      for (const pid of new Set([...kids, ...childPids(process.pid)])) {
        const at = kids.indexOf(pid);
        const now = processCpuMs(pid);
        if (now !== null) ms += now - (at >= 0 ? (kids0[at] ?? now) : 0);
      }
      return ms / 1000;
    },
  };
}

const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

/** One synthesis: { chunks, audioS, wallS, cpuS, firstMs } (firstMs: the first PCM chunk). */
async function synthesize(engine, voice, text) {
  const chunks = [];
  let samples = 0;
  let rate = 0;
  let firstMs = null;
  const cpu = cpuClock();
  const t0 = process.hrtime.bigint();
  for await (const chunk of engine.synthesize({ text, voice, speed: 1 })) {
    if (firstMs === null) firstMs = seconds(t0) * 1000;
    chunks.push(chunk);
    samples += chunk.samples.length / (chunk.channels || 1);
    rate = chunk.sampleRate;
  }
  const wallS = seconds(t0);
  return { chunks, audioS: rate ? samples / rate : 0, wallS, cpuS: cpu.stop(), firstMs };
}

/** MP3 (standard quality) of PCM chunks already made: { wallS, cpuS, bytes }. */
async function encodeMp3(codecs, chunks) {
  const cpu = cpuClock();
  const t0 = process.hrtime.bigint();
  const out = await codecs.encodeToBuffer(chunks, { format: 'mp3', quality: 'standard' });
  return { wallS: seconds(t0), cpuS: cpu.stop(), bytes: out.bytes.length };
}

/** Synthesis piped into the MP3 encoder, as a stream runs them: { audioS, wallS, cpuS, firstBytesMs }. */
async function synthesizeToMp3(engine, codecs, voice, text) {
  let durationMs = 0;
  let firstBytesMs = null;
  const cpu = cpuClock();
  const t0 = process.hrtime.bigint();
  const pcm = engine.synthesize({ text, voice, speed: 1 });
  for await (const bytes of codecs.encode(pcm, { format: 'mp3', quality: 'standard', onFinish: (d) => (durationMs = d.durationMs) })) {
    if (firstBytesMs === null && bytes.length) firstBytesMs = seconds(t0) * 1000;
  }
  return { audioS: durationMs / 1000, wallS: seconds(t0), cpuS: cpu.stop(), firstBytesMs };
}

/** `audio / time` as "12.3x", or '-' . */
const xrt = (audioS, s) => (audioS && s ? `${(audioS / s).toFixed(1)}x` : '-');

module.exports = { cpuClock, synthesize, encodeMp3, synthesizeToMp3, xrt };
