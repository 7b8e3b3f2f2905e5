'use strict';
// `voice intelligibility`: how well a recogniser understands each English voice. Every paragraph of plain
// prose is spoken over HTTP (POST /voice speak, wav at standard quality, 24 kHz), resampled to the 16 kHz
// of pocketsphinx's US English model, and transcribed; the word error rate (bench/lib/wer.js) is the edit
// distance over the voice's paragraphs together. pocketsphinx is a bench-only tool of the host: without it
// the phase is skipped with a message (apt-get install pocketsphinx pocketsphinx-en-us).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const { timedRequest } = require('../../lib/http');
const { round } = require('../../lib/stats');
const { findPocketsphinx, transcribe } = require('../../lib/pocketsphinx');
const { parseWav, resample, wavFile } = require('../../lib/voice-audio');
const { normaliseWords, wordErrorRate } = require('../../lib/wer');
const { PROSE } = require('../../lib/voice-text');

const TARGETS = { defaultVoiceMaxWer: 0.1 };
const RECOGNISER_RATE = 16000;

const COLUMNS = [
  { key: 'voice', title: 'voice' },
  { key: 'words', title: 'words', right: true },
  { key: 'sub', title: 'sub', right: true },
  { key: 'del', title: 'del', right: true },
  { key: 'ins', title: 'ins', right: true },
  { key: 'wer', title: 'WER %', right: true },
  { key: 'audio', title: 'audio s', right: true },
  { key: 'note', title: '' },
];

async function speakWav(h, state, voiceId, text, agent) {
  const chunks = [];
  const r = await timedRequest(h.formloom.url, 'POST', '/api/v1/voice', {
    apiKey: state.apiKey,
    agent,
    body: { mode: 'speak', voice: voiceId, text, format: 'wav' },
    headers: { accept: 'audio/wav' },
    onChunk: (c) => chunks.push(c),
    timeoutMs: 300000,
  });
  const bytes = Buffer.concat(chunks);
  if (r.status !== 200) throw new Error(`speak wav answered ${r.status}: ${bytes.toString().slice(0, 300)}`);
  return parseWav(bytes);
}

async function intelligibilityPhase(h, state) {
  const ps = findPocketsphinx();
  if (ps.missing) {
    const message = `voice intelligibility SKIPPED: ${ps.missing}`;
    h.log(message);
    return { table: { title: 'Voice intelligibility: SKIPPED (no pocketsphinx)', columns: [{ key: 'what', title: 'why' }], rows: [{ what: ps.missing }] }, checks: [], result: { skipped: ps.missing }, errors: [] };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-bench-voice-'));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const rows = [];
  const result = { recogniser: `${ps.bin} (${ps.kind})`, paragraphs: PROSE.length, voices: {} };
  const errors = [];
  const reference = PROSE.flatMap((p) => normaliseWords(p));
  try {
    h.log(`voice intelligibility: ${state.voices.length} voices x ${PROSE.length} paragraphs through ${ps.bin}`);
    for (const v of state.voices) {
      const label = `${v.engine} ${v.voice}${v.voice === state.defaultVoice.voice && v.engine === state.defaultVoice.engine ? ' (default)' : ''}`;
      try {
        const heard = [];
        let audioS = 0;
        for (const [i, paragraph] of PROSE.entries()) {
          const wav = await speakWav(h, state, v.id, paragraph, agent);
          audioS += wav.samples.length / wav.sampleRate;
          const file = path.join(dir, `${v.engine}-${v.voice}-${i}.wav`);
          fs.writeFileSync(file, wavFile(resample(wav.samples, wav.sampleRate, RECOGNISER_RATE), RECOGNISER_RATE));
          heard.push(await transcribe(ps, file));
        }
        const w = wordErrorRate(reference, normaliseWords(heard.join(' ')));
        rows.push({ voice: label, words: w.words, sub: w.substitutions, del: w.deletions, ins: w.insertions, wer: (w.wer * 100).toFixed(1), audio: audioS.toFixed(1), note: '' });
        result.voices[`${v.engine} ${v.voice}`] = { ...w, wer: round(w.wer, 4), audio_s: round(audioS, 2), transcript: heard };
      } catch (e) {
        errors.push(`${label}: ${e.message}`);
        rows.push({ voice: label, note: `failed: ${e.message.slice(0, 80)}` });
      }
    }
  } finally {
    agent.destroy();
    if (h.config.keepData) h.log(`voice intelligibility: WAV files kept in ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  const def = result.voices[`${state.defaultVoice.engine} ${state.defaultVoice.voice}`];
  return {
    table: { title: `Voice intelligibility: word error rate of ${ps.bin}'s transcripts (${PROSE.length} paragraphs, ${reference.length} words, wav over HTTP resampled to 16 kHz)`, columns: COLUMNS, rows },
    checks: def
      ? [{ check: `voice: WER of the default voice (${state.defaultVoice.engine} ${state.defaultVoice.voice})`, value: `${(def.wer * 100).toFixed(1)}%`, target: `<= ${TARGETS.defaultVoiceMaxWer * 100}%`, pass: def.wer <= TARGETS.defaultVoiceMaxWer }]
      : [],
    result: { ...result, targets: TARGETS },
    errors,
  };
}

module.exports = { intelligibilityPhase };
