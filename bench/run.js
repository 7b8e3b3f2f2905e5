'use strict';
// `npm run bench`: starts the self-hosted Formloom app, the bare Express + sqlite3 baseline and the ceiling (the
// baseline answering forms from memory and inserting with group commit) as child processes, then runs each
// scenario family in turn (FAMILIES): autocannon scenarios driven from another process, compared with the
// baseline and the ceiling in rounds where they have a counterpart there, and the families' own
// measurements ("phases": a streamed export, sequential timings, webhook deliveries). Prints every figure
// with PASS/FAIL against its target and writes a JSON report.
// Exit code: 0 when every run completed (even if a target FAILs: it is a report), 1 when a server did not
// start or died, a scenario got errors/non-2xx answers, or a phase found its results invalid (wrong line
// count, failed submissions...). Knobs (env): see docs/benchmarks.md.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { sleep } = require('./lib/process');
const { runLoad } = require('./lib/load');
const { startCpuWindow, processCpuMs, databaseServerPids } = require('./lib/cpu');
const { requestJson } = require('./lib/http');
const { startBaseline, startFormloom } = require('./lib/apps');
const report = require('./lib/report');
const { startRssSampler } = require('./lib/rss');
const figures = require('./lib/figures');

/**
 * Scenario families, in run order (each module: see "Adding scenarios" in docs/benchmarks.md):
 * `scenarios` ({ name, factory, args(ctx), compareToBaseline? }) run with autocannon, `prepare(app)` gives
 * them per-app context, `setup(h)` + `phases` ({ name, run(h, state) }) are measurements of their own.
 */
const FAMILIES = ['./scenarios/forms', './scenarios/ingest', './scenarios/stored-responses', './scenarios/webhooks', './scenarios/scale', './scenarios/filters', './scenarios/voice', './scenarios/workspace', './scenarios/results', './scenarios/renderer', './scenarios/scale-out', './scenarios/fanout'];
const families = FAMILIES.map((p) => {
  const file = require.resolve(p);
  const m = require(file);
  const name = m.family || path.basename(file, '.js');
  return {
    name,
    prepare: m.prepare,
    settle: m.settle,
    setup: m.setup,
    teardown: m.teardown,
    scenarios: (m.scenarios || []).map((s) => ({ ...s, module: file, family: name })),
    phases: (m.phases || []).map((ph) => ({ ...ph, family: name })),
  };
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
  // '' (all) | 'baseline' | comma-separated terms: part of a scenario or phase name, or a family name
  only: env.BENCH_ONLY || '',
  responses: num(env.BENCH_RESPONSES, 100000), // seeded for the CSV export and analytics
  scaleSizes: (env.BENCH_SCALE_SIZES || '100000,1000000').split(',').map(Number), // responses per form, scale family
  scaleForms: (env.BENCH_SCALE_FORMS || '1000,100000').split(',').map(Number), // forms per owner, scale family's forms list
  exportRuns: num(env.BENCH_EXPORT_RUNS, 5),
  analyticsRequests: num(env.BENCH_ANALYTICS_REQUESTS, 20),
  webhookResponses: num(env.BENCH_WEBHOOK_RESPONSES, 1000),
  webhookConcurrency: num(env.BENCH_WEBHOOK_CONCURRENCY, 20),
  webhookWaitS: num(env.BENCH_WEBHOOK_WAIT, 30),
  voiceStreams: num(env.BENCH_VOICE_STREAMS, 50), // streams per format, voice family
  sqlite3: env.BENCH_SQLITE3 || '/usr/bin/sqlite3',
  psql: env.BENCH_PSQL || '/usr/bin/psql', // the export's reference with BENCH_DATABASE=postgres
  appNodeArgs: args(env.BENCH_APP_NODE_ARGS), // e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'
  baselineNodeArgs: args(env.BENCH_BASELINE_NODE_ARGS),
  // Extra environment of Formloom, e.g. 'FORMLOOM_RATE_LIMITS=off FORMLOOM_LOG_LEVEL=warn' (cost of limits and logs).
  appEnv: Object.fromEntries(args(env.BENCH_APP_ENV).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
  keepData: env.BENCH_KEEP_DATA === '1',
  // 'sqlite' (default) or 'postgres': both apps on the database at BENCH_PG_URL, each in a schema of its own.
  database: env.BENCH_DATABASE || 'sqlite',
  pgUrl: env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/test',
  echo: env.BENCH_ECHO === '1',
};
/** Targets of compared scenarios that give `compareToBaseline: true` (others give their own). */
// Issue 21: at least the baseline's throughput, and no worse a p99 at 10 connections.
const DEFAULT_TARGETS = { minRpsRatio: 1.0, maxP99Ratio: 1.0, p99AtConnections: [10] };
/**
 * What a scenario is compared with: the bare baseline (`compareToBaseline`) and the ceiling
 * (`compareToCeiling`, issue 35), each `true` for DEFAULT_TARGETS or targets of its own.
 */
const REFERENCES = [
  { app: 'baseline', key: 'compareToBaseline' },
  { app: 'ceiling', key: 'compareToCeiling' },
];
const targetsOf = (s, key = 'compareToBaseline') => (s[key] === true ? DEFAULT_TARGETS : { ...DEFAULT_TARGETS, ...s[key] });
const comparedTo = (s) => REFERENCES.some((r) => s[r.key]);
const OTHER_CPU_WARN_PCT = 10;

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

// BENCH_ONLY: 'baseline' runs the compared scenarios on the baseline alone; other terms select scenarios and
// phases by part of their name, or whole families by exact name.
const terms = config.only.split(',').map((t) => t.trim()).filter(Boolean);
const baselineOnly = terms.length === 1 && terms[0] === 'baseline';
const selects = (name, family) => !terms.length || terms.some((t) => name.includes(t) || t === family);
const wantedScenario = (s) => (baselineOnly ? comparedTo(s) : selects(s.name, s.family));
const wantedPhase = (ph) => !baselineOnly && selects(ph.name, ph.family);

/** The database server's processes, whose CPU is the apps' work, not other work on the machine (PostgreSQL only). */
const serverPids = () => (config.database === 'postgres' ? databaseServerPids() : []);

/** One autocannon run of `scenario` against `app`; fails if the app died meanwhile. */
async function measure(app, scenario, connections, apps, label = '') {
  log(`${app.name}: ${scenario.name} @ ${connections} connections${label} (${config.warmup}s warm-up + ${config.duration}s)`);
  const cpu = startCpuWindow(apps.map((a) => a.proc.pid), { joining: serverPids });
  const rss = startRssSampler(app.proc.pid, 100);
  const appCpu0 = processCpuMs(app.proc.pid);
  const result = await runLoad({
    url: app.url,
    connections,
    duration: config.duration,
    warmup: config.warmup,
    headers: { authorization: `Bearer ${app.apiKey}` },
    requests: { module: scenario.module, export: scenario.factory, args: scenario.args({ ids: app.ids, ...app.ctx[scenario.family] }) },
  });
  // The measured window on the monotonic clock (µs), the time base of V8 CPU profiles: lets
  // bench/profile-summary.js keep only the samples of this run (BENCH_APP_NODE_ARGS=--cpu-prof).
  result.window_us = [result.ended_us - Math.round(result.duration_s * 1e6), result.ended_us];
  Object.assign(result, cpu.end(result.load_cpu_ms));
  result.peak_rss_mb = rss.stop().peak_kb / 1024;
  // The app's CPU (all threads) per request over warm-up and measurement: a figure a busy machine disturbs
  // far less than req/s, since CPU time is charged only while the app runs.
  const appCpu1 = processCpuMs(app.proc.pid);
  const served = result.requests_total + (result.warmup_requests || 0);
  result.cpu_us_per_req = appCpu0 !== null && appCpu1 !== null && served ? Math.round((1000 * (appCpu1 - appCpu0)) / served) : null;
  if (app.proc.exitInfo) throw new Error(`${app.name} died during ${scenario.name}:\n${app.proc.output()}`);
  return result;
}

/** Three fresh schemas on PostgreSQL, one per app, and how to drop them. */
async function pgSchemas(url) {
  const { Client } = require('pg');
  const tag = `${Date.now().toString(36)}_${process.pid}`;
  const names = { formloom: `formloom_bench_${tag}`, baseline: `baseline_bench_${tag}`, ceiling: `ceiling_bench_${tag}` };
  const run = async (sql) => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const all = Object.values(names);
  await run(all.map((n) => `CREATE SCHEMA ${n}`).join('; '));
  log(`PostgreSQL: schemas ${all.join(', ')} on ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
  return {
    formloom: { url, schema: names.formloom },
    baseline: { url, schema: names.baseline },
    ceiling: { url, schema: names.ceiling },
    drop: () => run(all.map((n) => `DROP SCHEMA ${n} CASCADE`).join('; ')).catch((e) => log(`dropping the schemas failed: ${e.message}`)),
  };
}

/**
 * Issue 35: resident memory at rest and at its peak under the GET /forms/:id load (every run of it), with
 * dependencies as published and V8's flags given at start only (issue 21's 80 / 120 MB took patches).
 */
const MEMORY_TARGETS = { restMb: 100, getLoadMb: 160 };
function memoryChecks(formloomRuns, restRssMb) {
  const out = [];
  if (restRssMb != null) {
    out.push({ family: 'memory', check: 'resident memory at rest', value: `${restRssMb.toFixed(1)} MB`, target: `< ${MEMORY_TARGETS.restMb} MB`, pass: restRssMb < MEMORY_TARGETS.restMb });
  }
  const gets = Object.values(formloomRuns['GET /forms/:id'] ?? {}).flat();
  if (gets.length) {
    const peak = Math.max(...gets.map((r) => r.peak_rss_mb));
    out.push({ family: 'memory', check: 'peak resident memory under the GET /forms/:id load', value: `${peak.toFixed(1)} MB`, target: `< ${MEMORY_TARGETS.getLoadMb} MB`, pass: peak < MEMORY_TARGETS.getLoadMb });
  }
  return out;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-bench-'));
  const apps = [];
  const runs = { baseline: {}, ceiling: {}, formloom: {} }; // app -> scenario -> connections -> [run per round]
  const record = (app, scenario, connections, r) => ((runs[app][scenario] ??= {})[connections] ??= []).push(r);
  const phaseResults = {}; // phase name -> { family, table, checks, result, errors }
  const plan = families
    .map((f) => ({ ...f, scenarios: f.scenarios.filter(wantedScenario), phases: f.phases.filter(wantedPhase) }))
    .filter((f) => f.scenarios.length || f.phases.length)
    .filter((f) => {
      // These seed Formloom's SQLite file directly: on PostgreSQL they are skipped (stored-responses seeds
      // either database).
      const sqliteOnly = ['scale', 'voice', 'results'].includes(f.name);
      if (sqliteOnly && config.database === 'postgres') log(`${f.name}: skipped on PostgreSQL (it seeds the SQLite file)`);
      return !(sqliteOnly && config.database === 'postgres');
    });
  const compared = plan.flatMap((f) => f.scenarios.filter(comparedTo));
  const needs = (key) => compared.some((s) => s[key]);
  let failed = false;
  const pg = config.database === 'postgres' ? await pgSchemas(config.pgUrl) : null;
  try {
    if (!plan.length) throw new Error(`BENCH_ONLY=${config.only} selects nothing`);
    // Only the forms family reads the 1,000 seeded forms; the others create the forms they use.
    const forms = plan.some((f) => f.name === 'forms') ? config.forms : 0;
    const baseline = needs('compareToBaseline')
      ? await startBaseline(dataDir, { forms, nodeArgs: config.baselineNodeArgs, echo: config.echo, pg: pg && pg.baseline })
      : null;
    if (baseline) apps.push(baseline);
    const ceiling = needs('compareToCeiling')
      ? await startBaseline(dataDir, { forms, nodeArgs: config.baselineNodeArgs, echo: config.echo, pg: pg && pg.ceiling, ceiling: true })
      : null;
    if (ceiling) apps.push(ceiling);
    const formloom = baselineOnly ? null : await startFormloom(dataDir, { ...config, forms, nodeArgs: config.appNodeArgs, pg: pg && pg.formloom });
    if (formloom) apps.push(formloom);
    for (const app of apps) app.ctx = {};
    for (const app of apps.filter((a) => a.ids.length)) {
      const { bytes } = await requestJson(app.url, 'GET', `/api/v1/forms/${app.ids[0]}`, { apiKey: app.apiKey });
      log(`${app.name}: GET /api/v1/forms/:id answers ${bytes} bytes`);
    }
    /** What families' `setup` and phases get: the apps, the config, and CPU windows over the bench's processes. */
    const h = {
      formloom,
      baseline,
      ceiling,
      config,
      log,
      cpuWindow: (extraPids = [], opts = {}) =>
        startCpuWindow([...apps.map((a) => a.proc.pid), ...extraPids], { threadsOf: formloom?.proc.pid, joining: serverPids, ...opts }),
    };

    for (const family of plan) {
      if (family.prepare && family.scenarios.length) {
        for (const app of apps) app.ctx[family.name] = await family.prepare(app, h);
      }
      // A compared scenario runs in rounds; in each, its references (baseline, ceiling) and Formloom run back
      // to back at each connection count (the order rotated every round), so a burst of other work on the
      // machine hits one group, and the median of the per-round ratios shrugs it off.
      for (const scenario of family.scenarios.filter(comparedTo)) {
        const group = [scenario.compareToBaseline && baseline, scenario.compareToCeiling && ceiling, formloom].filter(Boolean);
        for (let round = 0; round < config.rounds; round++) {
          const shift = round % group.length;
          for (const connections of config.connections) {
            for (const app of [...group.slice(shift), ...group.slice(0, shift)]) {
              // Work an app left for later (Formloom's analytics indexer) done first: never in another app's run.
              if (family.settle) await family.settle(h);
              const r = await measure(app, scenario, connections, apps, `, round ${round + 1}/${config.rounds}`);
              record(app.name, scenario.name, connections, r);
            }
          }
        }
      }
      if (formloom) {
        for (const scenario of family.scenarios.filter((s) => !comparedTo(s))) {
          for (const connections of config.connections) {
            record('formloom', scenario.name, connections, await measure(formloom, scenario, connections, apps));
          }
        }
      }
      if (family.phases.length) {
        const state = family.setup ? await family.setup(h) : null;
        try {
          for (const phase of family.phases) {
            phaseResults[phase.name] = { family: family.name, ...(await phase.run(h, state)) };
            if (formloom.proc.exitInfo) throw new Error(`formloom died during ${phase.name}:\n${formloom.proc.output()}`);
          }
        } finally {
          // `teardown(h, state)` (optional): stops what `setup` started (scale-out's instances and database).
          if (family.teardown) await family.teardown(h, state);
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
    if (!config.keepData) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (pg) await pg.drop();
    } else log(`data kept in ${dataDir}`);
  }

  const { rows, results } = report.summarise(runs);
  if (rows.length) {
    report.printTable(
      `Results (medians over rounds; req/s = mean of 1 s samples; latency of 2xx answers)`,
      report.RESULT_COLUMNS,
      rows,
    );
  }
  const checks = []; // every target of the run: { family, check, value, target, pass }
  const comparisons = {};
  for (const scenario of compared) {
    const refs = REFERENCES.filter((r) => scenario[r.key]);
    for (const ref of refs) {
      const c = scenario.name;
      if (!runs.formloom[c] || !runs[ref.app][c]) continue;
      const targets = targetsOf(scenario, ref.key);
      const rowsC = (comparisons[ref.app === 'baseline' ? c : `${c} vs ${ref.app}`] = report.compare(runs.formloom[c], runs[ref.app][c], targets));
      const p99 = targets.p99AtConnections.length ? `p99 @${targets.p99AtConnections.join(',')} conns <= ${targets.maxP99Ratio}x, ` : '';
      report.printTable(
        `${c}: Formloom / ${ref.app}, median of per-round ratios (targets: req/s >= ${targets.minRpsRatio}x, ${p99}no errors or non-2xx)`,
        report.COMPARE_COLUMNS,
        rowsC,
      );
      process.stdout.write(`\nTarget (${c} vs ${ref.app}): ${rowsC.every((x) => x.pass) ? 'PASS' : 'FAIL'}\n`);
      checks.push(...report.comparisonChecks(scenario.family, c, rowsC, targets, ref.app, ref === refs[0]));
    }
  }
  checks.push(...memoryChecks(runs.formloom, apps.find((a) => a.name === 'formloom')?.restRssMb));
  for (const [name, ph] of Object.entries(phaseResults)) {
    report.printTable(ph.table.title, ph.table.columns, ph.table.rows);
    for (const e of ph.errors) log(`${name}: ${e}`);
    checks.push(...ph.checks.map((c) => ({ family: ph.family, ...c })));
  }
  if (checks.length) {
    report.printTable('Targets', report.CHECK_COLUMNS, checks.map((c) => ({ ...c, verdict: c.pass ? 'PASS' : 'FAIL' })));
    const missed = checks.filter((c) => !c.pass);
    process.stdout.write(`\nTargets: ${missed.length ? `FAIL (${missed.length} of ${checks.length} missed)` : `PASS (${checks.length})`}\n`);
  }
  const otherCpu = [
    ...rows.map((r) => ({ what: `${r.app} ${r.scenario} @${r.connections}`, pct: r.other_cpu })),
    ...Object.entries(phaseResults).flatMap(([name, ph]) => report.phaseOtherCpu(name, ph.result)),
  ];
  const disturbed = otherCpu.filter((x) => x.pct >= OTHER_CPU_WARN_PCT);
  if (disturbed.length) {
    process.stdout.write(
      `\nWARNING: processes outside the bench used >= ${OTHER_CPU_WARN_PCT}% of the machine's CPU during ` +
        `${disturbed.length} of ${otherCpu.length} measurement(s) (column "other CPU %"): those figures are disturbed; ` +
        `rerun on a quiet machine.\n`,
    );
  }
  const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of bad) log(`${r.app} ${r.scenario} @${r.connections}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts`);
  const phaseErrors = Object.values(phaseResults).reduce((n, ph) => n + ph.errors.length, 0);

  const out = {
    date: new Date().toISOString(),
    commit: figures.commitOf(),
    database: config.database,
    machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}` },
    config: {
      ...config,
      targets: Object.fromEntries(compared.filter((s) => s.compareToBaseline).map((s) => [s.name, targetsOf(s)])),
      ceiling_targets: Object.fromEntries(compared.filter((s) => s.compareToCeiling).map((s) => [s.name, targetsOf(s, 'compareToCeiling')])),
    },
    results,
    comparison: comparisons['GET /forms/:id'] ?? null,
    comparisons,
    phases: Object.fromEntries(Object.entries(phaseResults).map(([k, ph]) => [k, { family: ph.family, ...ph.result, checks: ph.checks, errors: ph.errors }])),
    checks,
    other_cpu: otherCpu,
  };
  const file = path.join(os.tmpdir(), `formloom-bench-${out.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2));
  process.stdout.write(`\nJSON report: ${file}\n`);
  // The table that opens docs/benchmarks.md: written from every run that completed (BENCH_RECORD=0: never).
  if (env.BENCH_RECORD !== '0' && !failed && checks.length) {
    const { recorded, kept } = figures.recordRun(out, { commit: out.commit });
    process.stdout.write(`Figures: ${recorded} recorded in bench/figures.json and docs/benchmarks.md${kept ? `, ${kept} busy one(s) left out (a quiet one is recorded)` : ''} (BENCH_RECORD=0 leaves them)\n`);
  }
  process.exitCode = failed || bad.length || phaseErrors ? 1 : 0;
}

main().catch((e) => {
  log(`FAILED: ${e.stack || e}`);
  process.exitCode = 1;
});
