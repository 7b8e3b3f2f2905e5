'use strict';
// The load generator: a separate process (forked by lib/load.js) so autocannon never shares an event
// loop with the server it measures. It receives one job over IPC, runs autocannon, answers with a summary.
//
// Job: { url, connections, duration, warmup, overallRate?, headers, requests: { module, export, args } }
// `requests` names a factory (module path + export) called here with `args`; it returns autocannon's
// `requests` array (functions such as setupRequest cannot cross the process boundary).
const autocannon = require('autocannon');

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

const round = (n, d = 2) => (n == null ? null : Math.round(n * 10 ** d) / 10 ** d);

async function run(job) {
  const factory = require(job.requests.module)[job.requests.export];
  if (typeof factory !== 'function') throw new Error(`${job.requests.module} has no export ${job.requests.export}`);
  const opts = {
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    headers: job.headers || {},
    requests: factory(job.requests.args || {}),
  };
  if (job.warmup) opts.warmup = { connections: job.connections, duration: job.warmup };
  if (job.overallRate) opts.overallRate = job.overallRate; // requests a second over all connections (a paced load)
  const instance = autocannon(opts);
  // autocannon's histogram holds whole milliseconds; keep the exact 2xx latencies of the measured run too.
  const latencies = [];
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const r = await instance;
  const endedUs = Number(process.hrtime.bigint() / 1000n); // monotonic clock, shared by every process
  latencies.sort((a, b) => a - b);
  const sum = latencies.reduce((a, b) => a + b, 0);
  return {
    connections: job.connections,
    duration_s: r.duration,
    requests_total: r.requests.total,
    rps: round(r.requests.average, 1),
    rps_stddev: round(r.requests.stddev, 1),
    latency_ms: {
      mean: round(latencies.length ? sum / latencies.length : null),
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1]),
    },
    autocannon_latency_ms: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
    throughput_bytes_per_s: Math.round(r.throughput.average),
    ok_2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    status_codes: Object.fromEntries(Object.entries(r.statusCodeStats || {}).map(([k, v]) => [k, v.count])),
    warmup_requests: r.warmup ? r.warmup.requests.total : 0,
    ended_us: endedUs,
    load_cpu_ms: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
  };
}

process.once('message', (job) => {
  run(job).then(
    (result) => process.send({ ok: true, result }, () => process.exit(0)),
    (err) => process.send({ ok: false, error: String((err && err.stack) || err) }, () => process.exit(1)),
  );
});
