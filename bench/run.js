'use strict';
// `npm run bench`: starts the self-hosted Formloom app and the bare Express + sqlite3 baseline as child
// processes, seeds both with the same data, drives them with autocannon from a third process, prints
// requests/s and latency per scenario, the GET /forms/:id ratios to the baseline, and writes a JSON report.
// Exit code: 0 when every run completed (even if a target FAILs: it is a report), 1 when a server did not
// start or died, or a scenario got errors/non-2xx answers. Knobs (env): see docs/benchmarks.md.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { sleep } = require('./lib/process');
const { runLoad } = require('./lib/load');
const { startCpuWindow } = require('./lib/cpu');
const { requestJson } = require('./lib/http');
const { startBaseline, startFormloom } = require('./lib/apps');
const report = require('./lib/report');

/** Scenario families: each module exports `scenarios` ({ name, factory, args(ctx), compareToBaseline? }). */
const FAMILIES = ['./scenarios/forms'];
const SCENARIOS = FAMILIES.flatMap((p) => {
  const file = require.resolve(p);
  return require(file).scenarios.map((s) => ({ ...s, module: file }));
});

const env = process.env;
const num = (v, d) => (v === undefined || v === '' ? d : Number(v));
const args = (v) => (v || '').split(' ').filter(Boolean);
const config = {
  duration: num(env.BENCH_DURATION, 5),
  warmup: num(env.BENCH_WARMUP, 2),
  rounds: num(env.BENCH_ROUNDS, 3),
  connections: (env.BENCH_CONNECTIONS || '10,50').split(',').map(Number),
  forms: num(env.BENCH_FORMS, 1000),
  seedConcurrency: num(env.BENCH_SEED_CONCURRENCY, 8),
  only: env.BENCH_ONLY || '', // '' (all) | 'baseline' | part of a scenario name, e.g. 'GET /forms/:id'
  appNodeArgs: args(env.BENCH_APP_NODE_ARGS), // e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'
  baselineNodeArgs: args(env.BENCH_BASELINE_NODE_ARGS),
  keepData: env.BENCH_KEEP_DATA === '1',
  echo: env.BENCH_ECHO === '1',
};
const TARGETS = { minRpsRatio: 0.6, maxP99Ratio: 1.5, p99AtConnections: 10 };
const OTHER_CPU_WARN_PCT = 10;

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/** One autocannon run of `scenario` against `app`; fails if the app died meanwhile. */
async function measure(app, scenario, connections, apps, label = '') {
  log(`${app.name}: ${scenario.name} @ ${connections} connections${label} (${config.warmup}s warm-up + ${config.duration}s)`);
  const cpu = startCpuWindow(apps.map((a) => a.proc.pid));
  const result = await runLoad({
    url: app.url,
    connections,
    duration: config.duration,
    warmup: config.warmup,
    headers: { authorization: `Bearer ${app.apiKey}` },
    requests: { module: scenario.module, export: scenario.factory, args: scenario.args({ ids: app.ids }) },
  });
  // The measured window on the monotonic clock (µs), the time base of V8 CPU profiles: lets
  // bench/profile-summary.js keep only the samples of this run (BENCH_APP_NODE_ARGS=--cpu-prof).
  result.window_us = [result.ended_us - Math.round(result.duration_s * 1e6), result.ended_us];
  Object.assign(result, cpu.end(result.load_cpu_ms));
  if (app.proc.exitInfo) throw new Error(`${app.name} died during ${scenario.name}:\n${app.proc.output()}`);
  return result;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-bench-'));
  const apps = [];
  const runs = { baseline: {}, formloom: {} }; // app -> scenario -> connections -> [run per round]
  const record = (app, scenario, connections, r) => ((runs[app][scenario] ??= {})[connections] ??= []).push(r);
  const wanted = (s) => !config.only || config.only === 'baseline' || s.name.includes(config.only);
  const compared = SCENARIOS.find((s) => s.compareToBaseline);
  let failed = false;
  try {
    const baseline = await startBaseline(dataDir, { forms: config.forms, nodeArgs: config.baselineNodeArgs, echo: config.echo });
    apps.push(baseline);
    const formloom =
      config.only === 'baseline'
        ? null
        : await startFormloom(dataDir, { ...config, nodeArgs: config.appNodeArgs });
    if (formloom) apps.push(formloom);
    for (const app of apps) {
      const { bytes } = await requestJson(app.url, 'GET', `/api/v1/forms/${app.ids[0]}`, { apiKey: app.apiKey });
      log(`${app.name}: GET /api/v1/forms/:id answers ${bytes} bytes`);
    }

    // The compared scenario runs in rounds; in each, baseline and Formloom run back to back at each
    // connection count (order swapped every round), so a burst of other work on the machine hits one
    // pair, and the median of the per-round ratios shrugs it off.
    const pair = formloom && wanted(compared) ? [baseline, formloom] : [baseline];
    for (let round = 0; round < config.rounds; round++) {
      for (const connections of config.connections) {
        for (const app of round % 2 ? [...pair].reverse() : pair) {
          const r = await measure(app, compared, connections, apps, `, round ${round + 1}/${config.rounds}`);
          record(app.name, compared.name, connections, r);
        }
      }
    }
    if (formloom) {
      for (const scenario of SCENARIOS.filter((s) => s !== compared && wanted(s))) {
        for (const connections of config.connections) {
          record('formloom', scenario.name, connections, await measure(formloom, scenario, connections, apps));
        }
      }
    }
  } catch (e) {
    failed = true;
    log(`FAILED: ${e.stack || e}`);
  } finally {
    // The load process stops mid-request; let the apps finish what they had in flight before SIGTERM.
    if (apps.length) await sleep(1000);
    for (const app of apps) {
      const info = await app.proc.stop();
      if (info.code !== 0 && info.signal !== 'SIGTERM') log(`${app.name} stopped with ${JSON.stringify(info)}`);
    }
    if (!config.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    else log(`data kept in ${dataDir}`);
  }

  const { rows, results } = report.summarise(runs);
  if (rows.length) {
    report.printTable(
      `Results (medians over rounds; req/s = mean of 1 s samples; latency of 2xx answers)`,
      report.RESULT_COLUMNS,
      rows,
    );
  }
  let comparison = null;
  const c = compared.name;
  if (runs.formloom[c] && runs.baseline[c]) {
    comparison = report.compare(runs.formloom[c], runs.baseline[c], TARGETS);
    report.printTable(
      `${c}: Formloom / baseline, median of per-round ratios ` +
        `(targets: req/s >= ${TARGETS.minRpsRatio}x, p99 @${TARGETS.p99AtConnections} conns <= ${TARGETS.maxP99Ratio}x)`,
      report.COMPARE_COLUMNS,
      comparison,
    );
    process.stdout.write(`\nTarget: ${comparison.every((x) => x.pass) ? 'PASS' : 'FAIL'}\n`);
  }
  const disturbed = rows.filter((r) => r.other_cpu >= OTHER_CPU_WARN_PCT);
  if (disturbed.length) {
    process.stdout.write(
      `\nWARNING: processes outside the bench used >= ${OTHER_CPU_WARN_PCT}% of the machine's CPU during ` +
        `${disturbed.length} row(s) (column "other CPU %"): those figures are disturbed; rerun on a quiet machine.\n`,
    );
  }
  const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of bad) log(`${r.app} ${r.scenario} @${r.connections}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts`);

  const out = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}` },
    config: { ...config, targets: TARGETS },
    results,
    comparison,
  };
  const file = path.join(os.tmpdir(), `formloom-bench-${out.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2));
  process.stdout.write(`\nJSON report: ${file}\n`);
  process.exitCode = failed || bad.length ? 1 : 0;
}

main().catch((e) => {
  log(`FAILED: ${e.stack || e}`);
  process.exitCode = 1;
});
