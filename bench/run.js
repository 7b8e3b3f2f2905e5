'use strict';
// `npm run bench`: starts the self-hosted Formloom app and the bare Express + sqlite3 baseline as child
// processes, seeds both with the same data, drives them with autocannon from a third process, prints
// requests/s and latency per scenario, the GET /forms/:id ratios to the baseline, and writes a JSON report.
// Exit code: 0 when every run completed (even if a target FAILs: it is a report), 1 when a server did not
// start or died, or a scenario got errors/non-2xx answers. Knobs (env): see docs/benchmarks.md.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort, startProcess, waitForHttp, runJsonCommand, sleep } = require('./lib/process');
const { runLoad } = require('./lib/load');
const { startCpuWindow } = require('./lib/cpu');
const { requestJson } = require('./lib/http');
const { printTable, resultRow, compare, RESULT_COLUMNS, COMPARE_COLUMNS } = require('./lib/report');
const forms = require('./scenarios/forms');
const { formId } = require('./baseline-app');

const ROOT = path.resolve(__dirname, '..');
const APP_MAIN = path.join(ROOT, 'examples/self-hosted/dist/src/main.js');
const CLI_BIN = path.join(ROOT, 'packages/cli/bin/formloom.js');
const FORMS_SCENARIOS = path.join(__dirname, 'scenarios/forms.js');

const env = process.env;
const num = (v, d) => (v === undefined || v === '' ? d : Number(v));
const config = {
  duration: num(env.BENCH_DURATION, 6),
  warmup: num(env.BENCH_WARMUP, 2),
  connections: (env.BENCH_CONNECTIONS || '10,50').split(',').map(Number),
  forms: num(env.BENCH_FORMS, 1000),
  seedConcurrency: num(env.BENCH_SEED_CONCURRENCY, 8),
  only: env.BENCH_ONLY || '', // '' (all) | 'baseline' | a scenario name substring, e.g. 'GET /forms/:id'
  appNodeArgs: (env.BENCH_APP_NODE_ARGS || '').split(' ').filter(Boolean), // e.g. '--cpu-prof --cpu-prof-dir=/tmp/p'
  baselineNodeArgs: (env.BENCH_BASELINE_NODE_ARGS || '').split(' ').filter(Boolean),
  keepData: env.BENCH_KEEP_DATA === '1',
  echo: env.BENCH_ECHO === '1',
};
const OTHER_CPU_WARN_PCT = 10;
const TARGETS = { minRpsRatio: 0.6, maxP99Ratio: 1.5, p99AtConnections: 10 };

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

async function startBaseline(dataDir) {
  const port = await freePort();
  const apiKey = `fl_${crypto.randomBytes(12).toString('hex')}_${crypto.randomBytes(32).toString('hex')}`;
  const proc = startProcess({
    name: 'baseline',
    args: [...config.baselineNodeArgs, path.join(__dirname, 'baseline-app.js')],
    env: { PORT: String(port), BASELINE_DB: path.join(dataDir, 'baseline.sqlite'), BASELINE_API_KEY: apiKey, BASELINE_FORMS: String(config.forms) },
    echo: config.echo,
  });
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  await waitForHttp(`${url}/healthz`, { proc, timeoutMs: 120000 });
  log(`baseline up on ${url} (seeded ${config.forms} forms in ${Date.now() - t0} ms)`);
  const ids = Array.from({ length: config.forms }, (_, i) => formId(i));
  return { name: 'baseline', proc, url, apiKey, ids };
}

async function startFormloom(dataDir) {
  if (!fs.existsSync(APP_MAIN)) throw new Error(`${APP_MAIN} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const appEnv = { FORMLOOM_DATABASE_URL: `sqlite:${path.join(dataDir, 'formloom.sqlite')}`, FORMLOOM_DATA_DIR: dataDir };
  const proc = startProcess({
    name: 'formloom',
    args: [...config.appNodeArgs, APP_MAIN],
    env: { ...appEnv, PORT: String(port), NODE_ENV: 'production' },
    cwd: dataDir,
    echo: config.echo,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, { proc, timeoutMs: 60000 });
  log(`formloom up on ${url}`);
  const cli = (...args) => runJsonCommand([CLI_BIN, ...args], { env: appEnv, cwd: dataDir });
  await cli('user', 'create', '--email', 'bench@example.com', '--plan', 'pro');
  const key = await cli('key', 'create', '--user', 'bench@example.com');
  if (!key.api_key) throw new Error(`key create printed no api_key: ${JSON.stringify(key)}`);
  const t0 = Date.now();
  const ids = await forms.seedForms(url, key.api_key, { count: config.forms, concurrency: config.seedConcurrency });
  log(`seeded ${ids.length} forms through POST /api/v1/forms in ${Date.now() - t0} ms`);
  return { name: 'formloom', proc, url, apiKey: key.api_key, ids };
}

/** One autocannon run of `scenario` against `app`; fails if the app died meanwhile. */
async function measure(app, scenario, connections, apps) {
  log(`${app.name}: ${scenario.name} @ ${connections} connections (${config.warmup}s warm-up + ${config.duration}s)`);
  const cpu = startCpuWindow(apps.map((a) => a.proc.pid));
  const result = await runLoad({
    url: app.url,
    connections,
    duration: config.duration,
    warmup: config.warmup,
    headers: { authorization: `Bearer ${app.apiKey}` },
    requests: { module: FORMS_SCENARIOS, export: scenario.factory, args: scenario.args({ ids: app.ids }) },
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
  const results = { baseline: {}, formloom: {} };
  const rows = [];
  const wanted = (s) => !config.only || config.only === 'baseline' ? true : s.name.includes(config.only);
  const getScenario = forms.scenarios.find((s) => s.compareToBaseline);
  let failed = false;
  try {
    const baseline = await startBaseline(dataDir);
    apps.push(baseline);
    const formloom = config.only === 'baseline' ? null : await startFormloom(dataDir);
    if (formloom) apps.push(formloom);
    for (const app of apps) {
      const { bytes } = await requestJson(app.url, 'GET', `/api/v1/forms/${app.ids[0]}`, { apiKey: app.apiKey });
      log(`${app.name}: GET /api/v1/forms/:id answers ${bytes} bytes`);
    }

    // The compared scenario alternates baseline and Formloom at each connection count, so drift on the
    // machine (other processes, thermal) hits both sides alike.
    for (const connections of config.connections) {
      for (const app of apps) {
        if (app === formloom && !wanted(getScenario)) continue;
        const r = await measure(app, getScenario, connections, apps);
        ((results[app.name][getScenario.name] ??= {})[connections] = r);
        rows.push(resultRow(app.name, getScenario.name, r));
      }
    }
    if (formloom) {
      for (const scenario of forms.scenarios.filter((s) => s !== getScenario && wanted(s))) {
        for (const connections of config.connections) {
          const r = await measure(formloom, scenario, connections, apps);
          ((results.formloom[scenario.name] ??= {})[connections] = r);
          rows.push(resultRow('formloom', scenario.name, r));
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

  if (rows.length) printTable('Results (latency of 2xx answers; req/s = mean of 1 s samples)', RESULT_COLUMNS, rows);
  const get = getScenario.name;
  let comparison = null;
  if (results.formloom[get] && results.baseline[get]) {
    comparison = compare(results.formloom[get], results.baseline[get], TARGETS);
    printTable(`${get}: Formloom / baseline (targets: req/s >= ${TARGETS.minRpsRatio}x, p99 @${TARGETS.p99AtConnections} conns <= ${TARGETS.maxP99Ratio}x)`, COMPARE_COLUMNS, comparison);
    const pass = comparison.every((c) => c.pass);
    process.stdout.write(`\nTarget: ${pass ? 'PASS' : 'FAIL'}\n`);
  }
  const busy = rows.filter((r) => r.other_cpu >= OTHER_CPU_WARN_PCT);
  if (busy.length) {
    process.stdout.write(
      `\nWARNING: processes outside the bench used >= ${OTHER_CPU_WARN_PCT}% of the machine's CPU during ${busy.length} run(s) ` +
        `(column "other CPU %"): those figures are disturbed; rerun on a quiet machine.\n`,
    );
  }
  const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of bad) log(`${r.app} ${r.scenario} @${r.connections}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts`);

  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0] && os.cpus()[0].model, node: process.version, platform: `${os.platform()} ${os.release()}` },
    config: { ...config, targets: TARGETS },
    results,
    comparison,
  };
  const file = path.join(os.tmpdir(), `formloom-bench-${report.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  process.stdout.write(`\nJSON report: ${file}\n`);
  process.exitCode = failed || bad.length ? 1 : 0;
}

main().catch((e) => {
  log(`FAILED: ${e.stack || e}`);
  process.exitCode = 1;
});
