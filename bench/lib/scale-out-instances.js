'use strict';
// The scale-out family's "instances behind a proxy" phase: 1, 2, 3 Formloom instances (BENCH_SCALE_OUT_INSTANCES)
// of one deployment behind the round-robin proxy (lib/proxy.js), on one PostgreSQL database, each connected to
// it directly. Per run: req/s and latency through the proxy, the database work per request (pg_stat_statements,
// backend CPU) and where the machine's CPU went (instances, PostgreSQL, proxy, load generator, others). On a
// machine with fewer cores than processes the instances share the cores, so the figures that carry over to a
// real deployment are the per-request costs and how they change with N, not the req/s.
const path = require('node:path');
const os = require('node:os');
const { runLoad } = require('./load');
const { freePort, startProcess, waitForHttp, sleep } = require('./process');
const { machineBusyMs, processCpuMs } = require('./cpu');
const { startWorkWindow, perRequest } = require('./db-work');
const { efficiency } = require('./capacity-model');

const PROXY = path.join(__dirname, 'proxy.js');
const SCALE_OUT = require.resolve('../scenarios/scale-out');
const INGEST = require.resolve('../scenarios/ingest');

/** Starts the proxy process in front of `targets`; resolves with { proc, url, stop() }. */
async function startProxy(targets, echo = false) {
  const port = await freePort();
  const proc = startProcess({ name: 'proxy', args: [PROXY, String(port), ...targets], echo });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, { proc, timeoutMs: 30000 });
  return { proc, url, stop: () => proc.stop() };
}

/** Background (per second, one idle instance) times `n`. */
const timesN = (bg, n) => (bg ? Object.fromEntries(Object.entries(bg).map(([k, v]) => [k, v == null ? null : v * n])) : null);

async function instancesPhase(h, state) {
  // The relayed instance stops: its relay would charge the bench's process, and these instances connect directly.
  for (const i of state.instances.splice(0)) await i.proc.stop();
  const counts = (process.env.BENCH_SCALE_OUT_INSTANCES || '1,2,3').split(',').map(Number).filter((n) => n > 0);
  const connections = Math.max(...h.config.connections);
  // Each route twice: as fast as the instances go, then paced at a rate every N serves with room to spare on
  // this machine, so the work per request compares across N without CPU starvation in it (BENCH_SCALE_OUT_PACE).
  const [paceGet, paceSubmit] = (process.env.BENCH_SCALE_OUT_PACE || '300,100').split(',').map(Number);
  const routes = [
    ['GET /forms/:id', SCALE_OUT, 'getFormRequests', { ids: state.ids }, paceGet],
    ['POST /public/forms/:slug/responses', INGEST, 'submitResponseRequests', { slug: state.submitForm.slug, questions: state.submitForm.questions }, paceSubmit],
  ];
  const background = state.work?.background_per_s ?? null;
  const errors = [];
  const runs = [];
  for (const n of counts) {
    while (state.instances.length < n) {
      const instance = await state.deploy.start(`instance-${state.instances.length + 1}`);
      state.instances.push(instance);
      await state.warm(instance);
    }
    const group = state.instances.slice(0, n);
    const proxy = await startProxy(group.map((i) => i.url), h.config.echo);
    try {
      for (const [route, module, factory, args, rate] of routes.flatMap((r) => [[...r.slice(0, 4), null], [...r.slice(0, 4), r[4]]])) {
        h.log(`scale-out: ${route} through the proxy to ${n} instance(s) @ ${connections} connections${rate ? `, ${rate} req/s` : ''} (${h.config.warmup}s warm-up + ${h.config.duration}s)`);
        const pids = group.map((i) => i.proc.pid);
        const w = await startWorkWindow({ wire: null, probe: state.probe, pids });
        const busy0 = machineBusyMs();
        const proxy0 = processCpuMs(proxy.proc.pid) ?? 0;
        const self0 = process.cpuUsage();
        const t0 = Date.now();
        const load = await runLoad({
          url: proxy.url,
          connections,
          duration: h.config.duration,
          warmup: h.config.warmup,
          headers: { authorization: `Bearer ${state.apiKey}` },
          requests: { module, export: factory, args },
          overallRate: rate ?? undefined,
        });
        await sleep(400); // the rate-limit counters' write-behind lands inside the window
        const totals = await w.end();
        const wallMs = Date.now() - t0;
        const served = load.requests_total + (load.warmup_requests || 0);
        const per = perRequest(totals, served, timesN(background, n));
        const self = process.cpuUsage(self0);
        const capacity = wallMs * os.cpus().length;
        const pct = (ms) => (ms == null ? null : Math.round((1000 * ms) / capacity) / 10);
        const busy = busy0 === null ? null : machineBusyMs() - busy0;
        const split = {
          apps: pct(totals.app_cpu_ms),
          postgres: pct(totals.db_cpu_ms),
          proxy: pct((processCpuMs(proxy.proc.pid) ?? proxy0) - proxy0),
          load: pct(load.load_cpu_ms),
        };
        const own = totals.app_cpu_ms + (totals.db_cpu_ms ?? 0) + ((processCpuMs(proxy.proc.pid) ?? proxy0) - proxy0) + load.load_cpu_ms + (self.user + self.system) / 1000;
        const run = {
          route,
          load: rate ? `${rate}/s` : 'max',
          instances: n,
          connections,
          rps: load.rps,
          p50_ms: load.latency_ms.p50,
          p99_ms: load.latency_ms.p99,
          served,
          per_request: per,
          machine_cpu_pct: pct(busy),
          cpu_pct: split,
          other_cpu_pct: busy === null ? null : pct(Math.max(0, busy - own)),
        };
        if (load.non2xx || load.errors) errors.push(`${route} x${n} (${run.load}): ${load.non2xx} non-2xx, ${load.errors} errors`);
        runs.push(run);
      }
    } finally {
      await proxy.stop();
    }
  }
  state.runs = runs;
  const one = (r) => runs.find((x) => x.route === r.route && x.load === r.load && x.instances === counts[0]);
  const order = (r) => `${r.route}|${r.load === 'max' ? 0 : 1}|${r.instances}`;
  const rows = [...runs].sort((a, b) => (order(a) < order(b) ? -1 : 1)).map((r) => ({
    route: r.route,
    load: r.load,
    n: r.instances,
    rps: r.rps.toFixed(0),
    eff: r.load === 'max' && one(r) ? efficiency(r.rps, one(r).rps / counts[0], r.instances)?.toFixed(2) : null,
    p50: r.p50_ms,
    p99: r.p99_ms,
    stmts: r.per_request.pss_calls,
    exec: r.per_request.db_exec_us,
    db_cpu: r.per_request.db_cpu_us,
    app_cpu: r.per_request.app_cpu_us,
    split: `${r.cpu_pct.apps} / ${r.cpu_pct.postgres ?? '-'} / ${r.cpu_pct.proxy} / ${r.cpu_pct.load} / ${r.other_cpu_pct ?? '-'}`,
  }));
  return {
    table: {
      title:
        `Scale-out: N instances behind a round-robin proxy on one PostgreSQL, ${connections} connections (busy ` +
        `${os.cpus().length}-core machine: every process shares the same cores, so req/s cannot grow with N here; ` +
        `per-request costs can be compared, best at the paced load; eff = req/s / (N x req/s of one))`,
      columns: [
        { key: 'route', title: 'route' },
        { key: 'load', title: 'load', right: true },
        { key: 'n', title: 'N', right: true },
        { key: 'rps', title: 'req/s', right: true },
        { key: 'eff', title: 'eff', right: true },
        { key: 'p50', title: 'p50 ms', right: true },
        { key: 'p99', title: 'p99 ms', right: true },
        { key: 'stmts', title: 'stmts/req', right: true },
        { key: 'exec', title: 'stmt µs', right: true },
        { key: 'db_cpu', title: 'PG CPU µs', right: true },
        { key: 'app_cpu', title: 'app CPU µs', right: true },
        { key: 'split', title: 'CPU % apps / PG / proxy / load / other' },
      ],
      rows,
    },
    checks: [],
    result: {
      connections,
      instance_counts: counts,
      runs,
      // The most any run was disturbed by processes outside the bench (run.js warns past 10 %).
      other_cpu_pct: runs.reduce((m, r) => (r.other_cpu_pct == null ? m : Math.max(m ?? 0, r.other_cpu_pct)), null),
    },
    errors,
  };
}

module.exports = { instancesPhase, startProxy };
