'use strict';
// `voice stream first audio`: POST /api/v1/voice/stream, one at a time on a keep-alive connection, timed
// from the request's start to the first audible sound in the body (headers and silence do not count):
// pcm_24k is read sample by sample (the first 10 ms window at -40 dBFS or louder), mp3 frame by frame (the
// first whole frame whose side info codes any spectral data; LAME codes silence with none). The formats
// alternate, so a burst of other work on the machine hits both. Every stream is read to its end.
const http = require('node:http');
const { describe, monoMs, round } = require('../../lib/stats');
const { PcmSoundDetector, Mp3SoundDetector } = require('../../lib/voice-audio');
const { STREAM_TEXT } = require('../../lib/voice-text');

const STREAM_PATH = '/api/v1/voice/stream';
const TARGETS = { p50Ms: 250, p99Ms: 400 };
const WARMUP = 3;

/**
 * One stream read to its end, timed from the request's start (ms): headers, first body byte, first audible
 * sound (the detector follows the format the headers announce), last byte.
 */
function streamRequest(app, apiKey, body, agent) {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const t0 = monoMs();
    const req = http.request(`${app.url}${STREAM_PATH}`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), accept: 'application/octet-stream' },
    });
    req.setTimeout(120000, () => req.destroy(new Error('no answer within 120 s')));
    req.on('error', (error) => resolve({ error: String(error) }));
    req.on('response', (res) => {
      const headersMs = monoMs() - t0;
      const encoding = res.headers['service-audio-encoding'];
      const rate = Number(res.headers['service-audio-sample-rate']);
      const detector = encoding === 'mp3' ? new Mp3SoundDetector() : encoding === 'pcm_s16le' ? new PcmSoundDetector(rate) : null;
      let firstByteMs = null;
      let soundMs = null;
      let bytes = 0;
      const errorBody = [];
      res.on('data', (c) => {
        const now = monoMs() - t0;
        bytes += c.length;
        if (res.statusCode !== 200) return void errorBody.push(c);
        if (firstByteMs === null) firstByteMs = now;
        if (soundMs === null && detector && detector.push(c)) soundMs = now;
      });
      res.on('error', (error) => resolve({ error: String(error) }));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          encoding,
          headersMs,
          firstByteMs,
          soundMs,
          endMs: monoMs() - t0,
          bytes,
          // Where the sound starts in the audio: the sample (pcm) or frame (mp3) index.
          soundAt: detector ? (detector.sample ?? detector.soundFrame) : null,
          error: res.statusCode === 200 ? (soundMs === null ? 'no audible sound in the stream' : null) : `${res.statusCode}: ${Buffer.concat(errorBody).toString().slice(0, 200)}`,
        }),
      );
    });
    req.end(payload);
  });
}

async function streamPhase(h, state) {
  const app = h.formloom;
  const count = h.config.voiceStreams ?? 50;
  const formats = ['pcm_24k', 'mp3'];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const errors = [];
  const body = (format) => ({ voice: state.defaultVoice.id, text: STREAM_TEXT, format });
  try {
    const cold = await streamRequest(app, state.apiKey, body('pcm_24k'), agent);
    for (let i = 0; i < WARMUP; i++) for (const f of formats) await streamRequest(app, state.apiKey, body(f), agent);
    h.log(`formloom: ${count} streams per format (${formats.join(', ')}), one at a time, of ${STREAM_TEXT.length} characters`);
    const runs = Object.fromEntries(formats.map((f) => [f, []]));
    const cpu = h.cpuWindow();
    const t0 = monoMs();
    for (let i = 0; i < count; i++) {
      for (const f of i % 2 ? [...formats].reverse() : formats) {
        const r = await streamRequest(app, state.apiKey, body(f), agent);
        runs[f].push(r);
        if (r.error && errors.length < 5) errors.push(`stream ${f} #${i + 1}: ${r.error}`);
      }
    }
    const window = [t0, monoMs()];
    const cpuEnd = cpu.end();
    const ok = (f) => runs[f].filter((r) => !r.error);
    const stats = Object.fromEntries(
      formats.map((f) => [
        f,
        {
          streams: runs[f].length,
          failed: runs[f].length - ok(f).length,
          headers_ms: describe(ok(f).map((r) => r.headersMs)),
          first_byte_ms: describe(ok(f).map((r) => r.firstByteMs)),
          first_sound_ms: describe(ok(f).map((r) => r.soundMs)),
          end_ms: describe(ok(f).map((r) => r.endMs)),
          sound_at: ok(f)[0]?.soundAt ?? null,
          bytes: ok(f)[0]?.bytes ?? null,
        },
      ]),
    );
    const row = (what, d) => ({ what, n: d.n, p50: d.p50, p95: d.p95, p99: d.p99, min: d.min, max: d.max });
    const rows = [];
    for (const f of formats) {
      const s = stats[f];
      rows.push(row(`${f}: first audible sound`, s.first_sound_ms), row(`${f}: headers`, s.headers_ms), row(`${f}: first body byte`, s.first_byte_ms), row(`${f}: last byte`, s.end_ms));
    }
    rows.push({ what: `first stream of the run (engines cold): sound at ${round(cold.soundMs, 1)} ms, headers ${round(cold.headersMs, 1)} ms${cold.error ? `, ${cold.error}` : ''}` });
    const checks = formats.flatMap((f) => {
      const d = stats[f].first_sound_ms;
      const allOk = stats[f].failed === 0;
      return [
        { check: `voice: stream ${f} first audible sound p50`, value: d.p50 === null ? null : `${d.p50.toFixed(0)} ms`, target: `< ${TARGETS.p50Ms} ms`, pass: allOk && d.p50 !== null && d.p50 < TARGETS.p50Ms },
        { check: `voice: stream ${f} first audible sound p99`, value: d.p99 === null ? null : `${d.p99.toFixed(0)} ms`, target: `< ${TARGETS.p99Ms} ms`, pass: allOk && d.p99 !== null && d.p99 < TARGETS.p99Ms },
      ];
    });
    return {
      table: {
        title: `Voice stream: ms from the request to the first audible sound (${count} streams per format, one at a time, default voice, ${STREAM_TEXT.length} characters)`,
        columns: [
          { key: 'what', title: 'measure' },
          { key: 'n', title: 'n', right: true },
          { key: 'p50', title: 'p50 ms', right: true },
          { key: 'p95', title: 'p95 ms', right: true },
          { key: 'p99', title: 'p99 ms', right: true },
          { key: 'min', title: 'min', right: true },
          { key: 'max', title: 'max', right: true },
        ],
        rows,
      },
      checks,
      result: { text_characters: STREAM_TEXT.length, cold, ...stats, window_us: window.map((t) => Math.round(t * 1000)), ...cpuEnd, targets: TARGETS },
      errors,
    };
  } finally {
    agent.destroy();
  }
}

module.exports = { streamPhase, streamRequest };
