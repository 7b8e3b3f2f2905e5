'use strict';
// Voice family: the voice API of the self-hosted app measured over HTTP (docs/benchmarks.md, "voice").
// `setup` creates a verified Pro user with credits and a key of scope `voice` with the CLI, checks the voices
// exist and warms both engines up; then the phases: the stream's time to the first audible sound, engine and
// MP3 speed, a 5,000-character speak, 20 concurrent speaks with /healthz timed meanwhile, and the word error
// rate of pocketsphinx's transcripts per English voice (skipped with a message when pocketsphinx is missing).
const crypto = require('node:crypto');
const { requestJson } = require('../../lib/http');
const { streamPhase } = require('./stream');
const { speedPhase } = require('./speed');
const { longSpeakPhase, concurrencyPhase } = require('./load');
const { intelligibilityPhase } = require('./intelligibility');

const API = '/api/v1';
/** The voice of the stream, 5,000-character and concurrency figures: Flite's `rms`, the default voice. */
const DEFAULT_VOICE = { engine: 'flite', voice: 'rms' };
/** English voices whose synthesis speed and intelligibility are measured (BENCH_VOICES narrows them). */
const ENGLISH_VOICES = [
  { engine: 'flite', voice: 'rms' },
  { engine: 'flite', voice: 'slt' },
  { engine: 'flite', voice: 'awb' },
  { engine: 'flite', voice: 'kal16' },
  { engine: 'espeak', voice: 'en-us+klatt4' },
  { engine: 'espeak', voice: 'en-gb+klatt4' },
  { engine: 'espeak', voice: 'en-us+edward' },
  { engine: 'espeak', voice: 'en-us+f3' },
  { engine: 'espeak', voice: 'en-us' },
];

/** The stable `nv_` id of an engine voice (packages/core/src/voice/catalog.ts, voiceIdOf). */
const voiceIdOf = (engine, voice) => `nv_${crypto.createHash('sha256').update(`${engine}\u0000${voice}`).digest('hex').slice(0, 20)}`;

async function setup(h) {
  const app = h.formloom;
  // A Pro user with a verified email (voice needs it: docs/voice.md) and credits to spare.
  const email = `voice-${process.pid}@example.com`;
  await app.cli('user', 'create', '--email', email, '--plan', 'pro', '--verified');
  await app.cli('credits', 'purchase', '--user', email, '--credits', '100000000');
  const { api_key: apiKey } = await app.cli('key', 'create', '--user', email, '--scope', 'voice');
  if (!apiKey) throw new Error('formloom key create --scope voice printed no api_key');
  const wanted = (process.env.BENCH_VOICES || '').split(',').map((s) => s.trim()).filter(Boolean);
  const voices = ENGLISH_VOICES.filter((v) => !wanted.length || wanted.includes(v.voice)).map((v) => ({ ...v, id: voiceIdOf(v.engine, v.voice) }));
  const t0 = Date.now();
  const { body } = await requestJson(app.url, 'GET', `${API}/voice/voices?language=en`, { apiKey });
  const listed = new Set(body.data.map((v) => v.id));
  const missing = [DEFAULT_VOICE, ...voices].filter((v) => !listed.has(voiceIdOf(v.engine, v.voice)));
  if (missing.length) throw new Error(`GET /voice/voices does not list ${missing.map((v) => `${v.engine} ${v.voice}`).join(', ')}`);
  h.log(`formloom: voice key ready; the voice list took ${Date.now() - t0} ms (starts the engines)`);
  return { apiKey, voiceIdOf, defaultVoice: { ...DEFAULT_VOICE, id: voiceIdOf(DEFAULT_VOICE.engine, DEFAULT_VOICE.voice) }, voices };
}

const phases = [
  { name: 'voice stream first audio', run: streamPhase },
  { name: 'voice synthesis speed', run: speedPhase },
  { name: 'voice 5000 characters', run: longSpeakPhase },
  { name: 'voice concurrent speaks', run: concurrencyPhase },
  { name: 'voice intelligibility', run: intelligibilityPhase },
];

module.exports = { family: 'voice', setup, phases, voiceIdOf };
