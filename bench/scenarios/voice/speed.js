'use strict';
// `voice synthesis speed`: per English voice, in x real time (seconds of audio per second, higher is
// faster). In the bench process (engines created here, one Flite child / one eSpeak thread, so per core):
// synthesis alone, MP3 encoding of that PCM alone, and both piped as a stream runs them. Over HTTP: a
// synchronous speak in mp3 (POST /api/v1/voice, `Accept: audio/mpeg`) of the same text, end to end.
const http = require('node:http');
const { timedRequest } = require('../../lib/http');
const { round } = require('../../lib/stats');
const { synthesize, encodeMp3, synthesizeToMp3, xrt } = require('../../lib/engine-speed');
const { proseOf } = require('../../lib/voice-text');

const ROOT = '../../../packages';
const CHARACTERS = 1000;

function engines() {
  const { createFliteEngine } = require(`${ROOT}/speech-flite/dist/src`);
  const { createEspeakEngine } = require(`${ROOT}/speech-espeak/dist/src`);
  const { createAudioCodecs } = require(`${ROOT}/audio/dist/src`);
  return { flite: createFliteEngine({ poolSize: 1 }), espeak: createEspeakEngine({ threads: 1 }), codecs: createAudioCodecs() };
}

async function speakMp3(app, apiKey, voiceId, text, agent) {
  const r = await timedRequest(app.url, 'POST', '/api/v1/voice', {
    apiKey,
    agent,
    body: { mode: 'speak', voice: voiceId, text, format: 'mp3' },
    headers: { accept: 'audio/mpeg' },
    onChunk: () => {},
    timeoutMs: 300000,
  });
  const audioS = Number(r.headers['service-audio-duration']);
  return { status: r.status, wallS: (r.end_ms - r.start_ms) / 1000, audioS, bytes: r.bytes };
}

async function speedPhase(h, state) {
  const text = proseOf(CHARACTERS);
  const e = engines();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const rows = [];
  const result = { characters: text.length, voices: {} };
  const errors = [];
  try {
    // Warm: each engine's start (Flite child fork and wasm compile, eSpeak thread) and the MP3 worker.
    await synthesizeToMp3(e.flite, e.codecs, 'rms', 'Hello there.');
    await synthesizeToMp3(e.espeak, e.codecs, 'en-us+klatt4', 'Hello there.');
    h.log(`voice synthesis speed: ${state.voices.length} voices, ${text.length} characters each`);
    for (const v of state.voices) {
      const engine = e[v.engine];
      await synthesize(engine, v.voice, 'Hello there.'); // this voice's first run
      const synth = await synthesize(engine, v.voice, text);
      const mp3 = await encodeMp3(e.codecs, synth.chunks);
      const piped = await synthesizeToMp3(engine, e.codecs, v.voice, text);
      const speak = await speakMp3(h.formloom, state.apiKey, v.id, text, agent);
      if (speak.status !== 200) errors.push(`speak ${v.voice} answered ${speak.status}`);
      rows.push({
        voice: `${v.engine} ${v.voice}`,
        audio: synth.audioS.toFixed(1),
        synth: xrt(synth.audioS, synth.wallS),
        synthCpu: xrt(synth.audioS, synth.cpuS),
        first: round(synth.firstMs, 0),
        mp3: xrt(synth.audioS, mp3.wallS),
        mp3Cpu: xrt(synth.audioS, mp3.cpuS),
        piped: xrt(piped.audioS, piped.wallS),
        pipedCpu: xrt(piped.audioS, piped.cpuS),
        http: xrt(speak.audioS, speak.wallS),
      });
      result.voices[`${v.engine} ${v.voice}`] = {
        audio_s: round(synth.audioS, 2),
        synthesis: { wall_s: round(synth.wallS, 3), cpu_s: round(synth.cpuS, 3), first_chunk_ms: round(synth.firstMs, 1) },
        mp3: { wall_s: round(mp3.wallS, 3), cpu_s: round(mp3.cpuS, 3), bytes: mp3.bytes },
        synthesis_to_mp3: { audio_s: round(piped.audioS, 2), wall_s: round(piped.wallS, 3), cpu_s: round(piped.cpuS, 3), first_bytes_ms: round(piped.firstBytesMs, 1) },
        http_speak_mp3: { status: speak.status, audio_s: speak.audioS, wall_s: round(speak.wallS, 3), bytes: speak.bytes },
      };
    }
  } finally {
    agent.destroy();
    await Promise.all([e.flite.close(), e.espeak.close()]);
  }
  return {
    table: {
      title: `Voice synthesis speed, x real time (${text.length} characters per voice; engines in the bench process: one Flite child, one eSpeak thread; HTTP: POST /voice speak mp3)`,
      columns: [
        { key: 'voice', title: 'voice' },
        { key: 'audio', title: 'audio s', right: true },
        { key: 'synth', title: 'synthesis', right: true },
        { key: 'synthCpu', title: 'per CPU s', right: true },
        { key: 'first', title: 'first chunk ms', right: true },
        { key: 'mp3', title: 'mp3 encode', right: true },
        { key: 'mp3Cpu', title: 'per CPU s', right: true },
        { key: 'piped', title: 'synthesis+mp3', right: true },
        { key: 'pipedCpu', title: 'per CPU s', right: true },
        { key: 'http', title: 'HTTP speak mp3', right: true },
      ],
      rows,
    },
    checks: [],
    result,
    errors,
  };
}

module.exports = { speedPhase };
