'use strict';
// The database work of one submission (docs/benchmarks.md, "Ingest"): starts the self-hosted app in this
// process on a fresh SQLite file (or a PostgreSQL schema with BENCH_DATABASE=postgres), counts every statement
// the driver runs (sqlite3's Database and Statement calls, or pg's Client#query) and prints, per submission,
// the statements by kind: one at a time (each its own transaction) and `CONCURRENCY` at a time (group commit).
// Run after `npm run build`: `node bench/submission-work.js` (SUBMISSIONS=200 CONCURRENCY=50 to change).
// Each phase ends with one analytics read, which counts whatever the analytics indexer has not counted yet
// (docs/responses-and-webhooks.md, "How a submission is counted"): the indexer's work is part of a submission's.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { formBody } = require('./scenarios/forms');
const { answersFor } = require('./scenarios/ingest');
const { requestJson } = require('./lib/http');

const ROOT = path.resolve(__dirname, '..');
const req = (m) => require(require.resolve(m, { paths: [path.join(ROOT, 'examples/self-hosted')] }));
const SUBMISSIONS = Number(process.env.SUBMISSIONS || 200);
const CONCURRENCY = Number(process.env.CONCURRENCY || 50);
const PG = process.env.BENCH_DATABASE === 'postgres';
/** Submissions of the CPU phase (0 skips it): sent by a child process, CONCURRENCY at a time. */
const CPU_SUBMISSIONS = Number(process.env.CPU_SUBMISSIONS ?? 3000);
const PG_URL = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** SQL text -> calls, since the last `take()`. */
const counts = new Map();
const params = new Map();
/** Off during the CPU phase: the counting itself (a regex over each statement's text) is not the app's work. */
let counting = true;
const count = (sql, values) => {
  if (!counting) return;
  const key = String(sql).replace(/\s+/g, ' ').replace(/\(\$?\?*\d*(, \$?\?*\d*)+\)(, \(\$?\?*\d*(, \$?\?*\d*)+\))+/g, '(...rows)').slice(0, 150);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  if (Array.isArray(values)) params.set(key, (params.get(key) ?? 0) + values.length);
};
const take = () => {
  const out = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, c]) => [k, c, params.get(k) ?? 0]);
  counts.clear();
  params.clear();
  return out;
};

function instrument() {
  if (PG) {
    const { Client } = req('pg');
    const query = Client.prototype.query;
    Client.prototype.query = function (config, ...rest) {
      count(typeof config === 'string' ? config : config?.text ?? '?', Array.isArray(rest[0]) ? rest[0] : config?.values);
      return query.call(this, config, ...rest);
    };
    return;
  }
  const sqlite3 = req('sqlite3');
  const sqlOf = new WeakMap();
  const D = sqlite3.Database.prototype;
  for (const m of ['run', 'all', 'get', 'exec', 'each']) {
    const orig = D[m];
    D[m] = function (sql, ...rest) {
      count(sql, rest[0]);
      return orig.call(this, sql, ...rest);
    };
  }
  const prepare = D.prepare;
  D.prepare = function (sql, ...rest) {
    const stmt = prepare.call(this, sql, ...rest);
    sqlOf.set(stmt, sql);
    return stmt;
  };
  const S = sqlite3.Statement.prototype;
  for (const m of ['run', 'all', 'get', 'each']) {
    const orig = S[m];
    S[m] = function (...args) {
      count(sqlOf.get(this) ?? '?', args[0]);
      return orig.apply(this, args);
    };
  }
}

async function main() {
  instrument();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-submission-work-'));
  let schema = null;
  let dbUrl = `sqlite:${path.join(dir, 'formloom.sqlite')}`;
  if (PG) {
    const { Client } = req('pg');
    schema = `work_${process.pid}`;
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    dbUrl = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const { startSelfHosted } = require(path.join(ROOT, 'examples/self-hosted/dist/src/app.js'));
  const app = await startSelfHosted({
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: dbUrl,
    FORMLOOM_LOG_LEVEL: 'silent',
    ...Object.fromEntries(['SUBMISSIONS', 'PUBLIC_READS'].map((n) => [`FORMLOOM_RATE_LIMIT_${n}`, '100000000'])),
  });
  try {
    const owner = await app.formloom.accounts.createUser({ email: 'work@example.com', plan: 'pro' });
    const { api_key: apiKey } = await app.formloom.accounts.createKey(owner.id);
    const { body: created } = await requestJson(app.url, 'POST', '/api/v1/forms', { apiKey, body: formBody('work') });
    await requestJson(app.url, 'POST', `/api/v1/forms/${created.id}/publish`, { apiKey });
    const { body: form } = await requestJson(app.url, 'GET', `/api/v1/forms/${created.id}`, { apiKey });
    const questions = form.questions.map((q) => ({ id: q.id, type: q.type, properties: q.properties }));
    let n = 0;
    const submit = async () => {
      const i = ++n;
      const r = await requestJson(app.url, 'POST', `/api/v1/public/forms/${form.slug}/responses`, { body: { answers: answersFor(questions, i), visitor_id: `w-${i}` } });
      if (r.status !== 201) throw new Error(`submission answered ${r.status}: ${JSON.stringify(r.body)}`);
    };
    const drain = async () => {
      const r = await requestJson(app.url, 'GET', `/api/v1/forms/${form.id}/analytics`, { apiKey });
      if (r.status !== 200) throw new Error(`analytics answered ${r.status}`);
    };
    for (let i = 0; i < 5; i++) await submit(); // warm: caches filled, statements prepared
    await drain();
    take();
    for (let i = 0; i < SUBMISSIONS; i++) await submit();
    await drain();
    report(`one at a time (${SUBMISSIONS} submissions)`, take(), SUBMISSIONS);
    let left = SUBMISSIONS;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await submit();
    }));
    await drain();
    report(`${CONCURRENCY} at a time (${SUBMISSIONS} submissions)`, take(), SUBMISSIONS);
    counting = false;
    if (CPU_SUBMISSIONS > 0) await cpuPerSubmission(app.url, form.slug, questions, drain);
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (PG) {
      const { Client } = req('pg');
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    }
  }
}

/**
 * This process's CPU (every thread: the event loop and sqlite3's) per submission while a child process sends
 * CPU_SUBMISSIONS, CONCURRENCY at a time: less disturbed by a busy machine than req/s, and comparable between
 * two builds run one after the other.
 */
async function cpuPerSubmission(url, slug, questions, drain) {
  const { spawn } = require('node:child_process');
  const client = `
    const [url, slug, n, c, questions] = JSON.parse(process.argv[1]);
    const { answersFor } = require(${JSON.stringify(path.join(__dirname, 'scenarios/ingest.js'))});
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: c });
    let next = 0, failed = 0;
    const one = (i) => new Promise((resolve) => {
      const body = JSON.stringify({ answers: answersFor(questions, 100000 + i), visitor_id: 'cpu-' + i });
      const req = http.request(url + '/api/v1/public/forms/' + slug + '/responses', { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        if (res.statusCode !== 201) failed++;
        res.resume(); res.on('end', resolve);
      });
      req.on('error', () => { failed++; resolve(); });
      req.end(body);
    });
    const worker = async () => { while (next < n) await one(next++); };
    process.send('ready');
    process.once('message', async () => {
      await Promise.all(Array.from({ length: c }, worker));
      process.send({ failed });
    });`;
  const args = JSON.stringify([url, slug, CPU_SUBMISSIONS, CONCURRENCY, questions]);
  const child = spawn(process.execPath, ['-e', client, args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  const t0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  child.send('go');
  const { failed } = await new Promise((resolve) => child.once('message', resolve));
  await drain();
  const used = process.cpuUsage(t0);
  const wall = Number(process.hrtime.bigint() - w0) / 1e9;
  child.kill();
  if (failed) throw new Error(`${failed} submissions of the CPU phase failed`);
  const us = (used.user + used.system) / CPU_SUBMISSIONS;
  const endUs = Number(process.hrtime.bigint() / 1000n);
  console.log(`\n${PG ? 'PostgreSQL' : 'SQLite'}, CPU phase (${CPU_SUBMISSIONS} submissions, ${CONCURRENCY} at a time): ${us.toFixed(0)} µs of app CPU per submission, ${(CPU_SUBMISSIONS / wall).toFixed(0)} submissions/s`);
  // With `node --cpu-prof`: bench/profile-summary.js <profile> --from <µs> --to <µs> keeps this phase only.
  console.log(`CPU phase window on the monotonic clock: --from ${endUs - Math.round(wall * 1e6)} --to ${endUs}`);
}

function report(title, rows, n) {
  const total = rows.reduce((s, [, c]) => s + c, 0);
  const bound = rows.reduce((s, [, , p]) => s + p, 0);
  console.log(`\n${PG ? 'PostgreSQL' : 'SQLite'}, ${title}: ${(total / n).toFixed(2)} statements and ${(bound / n).toFixed(1)} bound values per submission`);
  console.log('   calls  values  statement (per submission)');
  for (const [sql, c, p] of rows) console.log(`${(c / n).toFixed(3).padStart(8)} ${(p / n).toFixed(1).padStart(7)}  ${sql}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
