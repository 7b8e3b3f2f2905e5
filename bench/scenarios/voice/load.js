'use strict';
// `voice 5000 characters`: one synchronous speak of 5,000 characters (the largest a request takes), mp3,
// end to end. `voice concurrent speaks`: 20 speaks at once while GET /healthz (answered from the event loop
// alone) is timed in a loop on its own connection; its latency above the idle figure is the event loop's
// delay, the answer to "does the server keep answering while it speaks?".
const http = require('node:http');
const { timedRequest, mapLimit } = require('../../lib/http');
const { describe, monoMs, round } = require('../../lib/stats');
const { proseOf } = require('../../lib/voice-text');

const LONG_CHARACTERS = 5000;
const CONCURRENT = 20;
const CONCURRENT_CHARACTERS = 400;
const TARGETS = { healthzP99Ms: 100 };

function speak(h, state, text, agent, timeoutMs = 600000) {
  return timedRequest(h.formloom.url, 'POST', '/api/v1/voice', {
    apiKey: state.apiKey,
    agent,
    body: { mode: 'speak', voice: state.defaultVoice.id, text, format: 'mp3' },
    headers: { accept: 'audio/mpeg' },
    timeoutMs,
  })
    .then((r) => ({ ...r, text: r.status === 200 ? null : r.text, audioS: Number(r.headers['service-audio-duration']) }))
    .catch((e) => ({ status: null, error: String(e) }));
}

async function longSpeakPhase(h, state) {
  const text = proseOf(LONG_CHARACTERS);
  const cpu = h.cpuWindow();
  const r = await speak(h, state, text);
  const cpuEnd = cpu.end();
  const errors = r.status === 200 ? [] : [`5,000-character speak answered ${r.status ?? r.error}: ${r.text?.slice(0, 300) ?? ''}`];
  const wallS = r.end_ms ? (r.end_ms - r.start_ms) / 1000 : null;
  return {
    table: {
      title: `Voice: one speak of ${text.length} characters (POST /voice, mp3, Accept: audio/mpeg, default voice)`,
      columns: [
        { key: 'status', title: 'status', right: true },
        { key: 'time', title: 'time s', right: true },
        { key: 'audio', title: 'audio s', right: true },
        { key: 'xrt', title: 'x real time', right: true },
        { key: 'kb', title: 'kB', right: true },
        { key: 'other', title: 'other CPU %', right: true },
      ],
      rows: [
        {
          status: r.status ?? 'error',
          time: wallS?.toFixed(2),
          audio: r.audioS?.toFixed(1),
          xrt: wallS && r.audioS ? `${(r.audioS / wallS).toFixed(1)}x` : null,
          kb: r.bytes ? Math.round(r.bytes / 1024) : null,
          other: cpuEnd.other_cpu_pct,
        },
      ],
    },
    checks: [],
    result: { characters: text.length, status: r.status, seconds: round(wallS, 3), audio_seconds: r.audioS ?? null, bytes: r.bytes ?? null, ...cpuEnd },
    errors,
  };
}

/** Times GET /healthz back to back on one keep-alive connection until `until()` is true. */
async function healthzLoop(url, until) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ms = [];
  let failures = 0;
  try {
    while (!until()) {
      const r = await timedRequest(url, 'GET', '/healthz', { agent, timeoutMs: 30000 }).catch(() => null);
      if (r && r.status === 200) ms.push(r.end_ms - r.start_ms);
      else failures++;
    }
  } finally {
    agent.destroy();
  }
  return { ms, failures };
}

async function concurrencyPhase(h, state) {
  const app = h.formloom;
  const text = proseOf(CONCURRENT_CHARACTERS);
  let idleDone = false;
  const idleTimer = setTimeout(() => (idleDone = true), 2000);
  const idle = await healthzLoop(app.url, () => idleDone);
  clearTimeout(idleTimer);

  h.log(`voice: ${CONCURRENT} concurrent speaks of ${text.length} characters, GET /healthz timed meanwhile`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
  let done = false;
  const cpu = h.cpuWindow();
  const t0 = monoMs();
  const loop = healthzLoop(app.url, () => done);
  const speaks = await mapLimit(CONCURRENT, CONCURRENT, () => speak(h, state, text, agent)).finally(() => (done = true));
  const t1 = monoMs();
  const during = await loop;
  const cpuEnd = cpu.end();
  agent.destroy();

  const failed = speaks.filter((r) => r.status !== 200);
  const errors = failed.slice(0, 5).map((r) => `concurrent speak answered ${r.status ?? r.error}: ${r.text?.slice(0, 200) ?? ''}`);
  const audioS = speaks.reduce((a, r) => a + (r.audioS || 0), 0);
  const wallS = (t1 - t0) / 1000;
  const latency = describe(speaks.filter((r) => r.status === 200).map((r) => r.end_ms - r.start_ms));
  const H = describe(during.ms);
  const I = describe(idle.ms);
  const hz = (what, d, failures) => ({ what, n: d.n, p50: d.p50, p99: d.p99, max: d.max, note: failures ? `${failures} failed` : '' });
  return {
    table: {
      title: `Voice: ${CONCURRENT} concurrent speaks of ${text.length} characters (mp3, default voice) on ${require('node:os').cpus().length} cores; GET /healthz timed meanwhile`,
      columns: [
        { key: 'what', title: 'measure' },
        { key: 'n', title: 'n', right: true },
        { key: 'p50', title: 'p50 ms', right: true },
        { key: 'p99', title: 'p99 ms', right: true },
        { key: 'max', title: 'max ms', right: true },
        { key: 'note', title: '' },
      ],
      rows: [
        { ...hz('speak request -> whole answer', latency, 0), note: `${speaks.length - failed.length}/${speaks.length} answered 200` },
        hz('GET /healthz during the speaks', H, during.failures),
        hz('GET /healthz idle, before', I, idle.failures),
        { what: `${audioS.toFixed(0)} s of audio in ${wallS.toFixed(1)} s: ${(audioS / wallS).toFixed(1)}x real time over all requests; other CPU ${cpuEnd.other_cpu_pct ?? '-'}%` },
      ],
    },
    checks: [
      { check: `voice: ${CONCURRENT} concurrent speaks without errors`, value: `${failed.length} errors`, target: '0 errors', pass: failed.length === 0 },
      {
        check: 'voice: GET /healthz p99 during the concurrent speaks',
        value: H.p99 === null ? null : `${H.p99.toFixed(1)} ms (idle ${I.p99?.toFixed(1)} ms)`,
        target: `< ${TARGETS.healthzP99Ms} ms`,
        pass: H.p99 !== null && H.p99 < TARGETS.healthzP99Ms && during.failures === 0,
      },
    ],
    result: {
      concurrent: CONCURRENT,
      characters: text.length,
      answered_200: speaks.length - failed.length,
      seconds: round(wallS, 3),
      audio_seconds: round(audioS, 2),
      speak_ms: latency,
      healthz_during_ms: H,
      healthz_during_failures: during.failures,
      healthz_idle_ms: I,
      window_us: [Math.round(t0 * 1000), Math.round(t1 * 1000)],
      ...cpuEnd,
      targets: TARGETS,
    },
    errors,
  };
}

module.exports = { longSpeakPhase, concurrencyPhase };
