'use strict';
// The servers under bench, started as child processes on a data directory: the self-hosted Formloom app
// (seeded through its API), the bare Express + sqlite3 baseline and the ceiling (the baseline with
// BASELINE_CEILING=1: forms from memory, group commit), each on a database of its own, seeding itself with SQL.
// Each resolves with { name, proc, url, apiKey, ids } where `ids` are the seeded form ids; the baseline adds
// `ingestFormId` (its published form for the ingest), Formloom adds `dataDir`, `dbFile` (null on PostgreSQL),
// `pg` ({ url, schema } on PostgreSQL, else null) and `cli(...args)`.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { freePort, startProcess, waitForHttp, runJsonCommand } = require('./process');
const { seedForms } = require('../scenarios/forms');
const { formId, INGEST_FORM_ID } = require('../baseline-app');
const { memoryOf } = require('./rss');

const ROOT = path.resolve(__dirname, '..', '..');
const APP_MAIN = path.join(ROOT, 'examples/self-hosted/dist/src/main.js');
// Formloom runs as `npm start` and the Docker image start it: through its launcher, which sets malloc's
// arenas (MALLOC_ARENA_MAX=2 unless the environment gives one: BENCH_APP_ENV) and V8's memory flags, and
// execs node (docs/operations.md, "Memory").
const APP_LAUNCHER = path.join(ROOT, 'examples/self-hosted/bin/formloom-server');
const CLI_BIN = path.join(ROOT, 'packages/cli/bin/formloom.js');
const BASELINE_MAIN = path.join(ROOT, 'bench/baseline-app.js');

// One key and one client address drive the whole load: the limits stay on (their counters are part of what is
// measured) but are raised far above what a run sends (docs/security.md).
const BENCH_LIMIT = '100000000';
const BENCH_RATE_LIMITS = Object.fromEntries(
  ['PER_KEY', 'FAILED_AUTH', 'SUBMISSIONS', 'PARTIAL_UPDATES', 'UPLOADS', 'PUBLIC_READS', 'VOICE', 'VOICE_ESTIMATES'].map((n) => [`FORMLOOM_RATE_LIMIT_${n}`, BENCH_LIMIT]),
);

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/**
 * opts: { forms, nodeArgs, echo, pg, ceiling } where `pg` is { url, schema } to run on PostgreSQL and
 * `ceiling` starts the ceiling (named so) instead of the bare baseline.
 */
async function startBaseline(dataDir, { forms, nodeArgs = [], echo = false, pg = null, ceiling = false }) {
  const name = ceiling ? 'ceiling' : 'baseline';
  const port = await freePort();
  const apiKey = `fl_${crypto.randomBytes(12).toString('hex')}_${crypto.randomBytes(32).toString('hex')}`;
  const proc = startProcess({
    name,
    args: [...nodeArgs, BASELINE_MAIN],
    env: {
      PORT: String(port),
      NODE_ENV: 'production',
      ...(pg ? { BASELINE_PG_URL: pg.url, BASELINE_PG_SCHEMA: pg.schema } : { BASELINE_DB: path.join(dataDir, `${name}.sqlite`) }),
      BASELINE_API_KEY: apiKey,
      BASELINE_FORMS: String(forms),
      BASELINE_CEILING: ceiling ? '1' : '0',
    },
    echo,
  });
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  await waitForHttp(`${url}/healthz`, { proc, timeoutMs: 120000 });
  log(`${name} up on ${url} (seeded ${forms} forms with SQL in ${Date.now() - t0} ms)`);
  return { name, proc, url, apiKey, ids: Array.from({ length: forms }, (_, i) => formId(i)), ingestFormId: INGEST_FORM_ID };
}

/** MALLOC_ARENA_MAX in the environment of process `pid` (Linux /proc), or null. */
function arenasOf(pid) {
  try {
    const entry = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith('MALLOC_ARENA_MAX='));
    return entry ? entry.slice('MALLOC_ARENA_MAX='.length) : null;
  } catch {
    return null;
  }
}

/** node's own flags on the command line of process `pid` (Linux /proc), or '?'. */
function v8FlagsOf(pid) {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return argv.slice(1).filter((a) => a.startsWith('--')).join(' ') || '(none)';
  } catch {
    return '?';
  }
}

/** opts: { forms, seedConcurrency, nodeArgs, echo, appEnv, pg } where `pg` is { url, schema } to run on PostgreSQL. */
async function startFormloom(dataDir, { forms, seedConcurrency = 8, nodeArgs = [], echo = false, appEnv: extraEnv = {}, pg = null }) {
  if (!fs.existsSync(APP_MAIN)) throw new Error(`${APP_MAIN} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const dbFile = pg ? null : path.join(dataDir, 'formloom.sqlite');
  const databaseUrl = pg ? `${pg.url}${pg.url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${pg.schema}`)}` : `sqlite:${dbFile}`;
  const appEnv = { FORMLOOM_DATABASE_URL: databaseUrl, FORMLOOM_DATA_DIR: dataDir };
  const proc = startProcess({
    name: 'formloom',
    cmd: APP_LAUNCHER,
    args: nodeArgs,
    // Webhook receivers of the bench listen on 127.0.0.1, which the delivery guard refuses by default.
    env: { ...appEnv, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH || ''}`, PORT: String(port), NODE_ENV: 'production', FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1', ...BENCH_RATE_LIMITS, ...extraEnv },
    cwd: dataDir,
    echo,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, { proc, timeoutMs: 60000 });
  // Resident memory at rest: after start, before any request but the health check (issue 35: < 100 MB).
  await new Promise((r) => setTimeout(r, 1000));
  const rest = memoryOf(proc.pid);
  const restRssMb = rest ? rest.rss_kb / 1024 : null;
  log(`formloom up on ${url}${restRssMb ? ` (RSS at rest ${restRssMb.toFixed(1)} MB)` : ''}, started by ${path.relative(ROOT, APP_LAUNCHER)} with MALLOC_ARENA_MAX=${arenasOf(proc.pid) ?? '?'} and V8 flags ${v8FlagsOf(proc.pid)}`);
  const cli = (...args) => runJsonCommand([CLI_BIN, ...args], { env: appEnv, cwd: dataDir });
  await cli('user', 'create', '--email', 'bench@example.com', '--plan', 'pro');
  const key = await cli('key', 'create', '--user', 'bench@example.com');
  if (!key.api_key) throw new Error(`formloom key create printed no api_key: ${JSON.stringify(key)}`);
  const t0 = Date.now();
  const ids = await seedForms(url, key.api_key, { count: forms, concurrency: seedConcurrency });
  if (ids.length) log(`formloom: seeded ${ids.length} forms through POST /api/v1/forms in ${Date.now() - t0} ms`);
  return { name: 'formloom', proc, url, apiKey: key.api_key, ids, dataDir, dbFile, pg, cli, restRssMb };
}

module.exports = { startBaseline, startFormloom };
