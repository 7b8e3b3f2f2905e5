'use strict';
// Stored-responses family: reading many responses back. `setup` seeds 100,000 responses of one published
// 10-question form straight into Formloom's database (one transaction: a prepared INSERT on the SQLite
// file, multi-row INSERTs in the PostgreSQL schema with BENCH_DATABASE=postgres); then
//   - "CSV export": GET /forms/:id/responses/export streamed over HTTP (time, peak RSS of the app, line
//     count), against the database's CLI dumping the same rows as CSV (`sqlite3 -csv`, `psql \copy`);
//   - "analytics": sequential GET /forms/:id/analytics, against GET /forms/:id of the same form (the HTTP
//     floor: auth, one form read, JSON) and against the aggregate query alone on the same database.
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const sqlite3 = require('sqlite3');
const { requestJson, timedRequest } = require('../lib/http');
const { seedResponsesPg, schemaBytes, csvCli, cliOnce, cliOutput, countNewlines, statementAlone } = require('../lib/responses-db');
const { startRssSampler } = require('../lib/rss');
const { describe, round, monoMs } = require('../lib/stats');
const { formBody } = require('./forms');
const { answersFor } = require('./ingest');
const { fillRollup } = require('../lib/rollup');
const { CsvLines } = require('@formloom/core');

const API = '/api/v1';
const DAY_MS = 86400000;
const MB = 1024; // kB per MB
// Issue 21: the export streams at the CLI's pace in bounded memory.
const TARGETS = { exportPeakRssMb: 120, exportTimeRatio: 1.0, analyticsMs: 100 };

const p = (db, method, sql, params = []) =>
  new Promise((resolve, reject) => db[method](sql, params, (err, res) => (err ? reject(err) : resolve(res))));

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
function randomId(prefix) {
  let s = '';
  for (const b of crypto.randomBytes(20)) s += ALPHABET[b % 62];
  return `${prefix}_${s}`;
}

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * The `responses` row of respondent `i` of `count`, in the formats Formloom writes (storage-typeorm tables/responses.ts): answers and
 * metadata as JSON text, ISO-8601 UTC timestamps. Submissions spread evenly over the last 90 days; one in
 * ten is a partial response (not completed, fewer answers, a resume token hash).
 */
function responseRow(form, i, count, now) {
  const submitted = new Date(now - 90 * DAY_MS + Math.floor((i * 90 * DAY_MS) / count));
  const partial = i % 10 === 9;
  const seconds = 30 + ((i * 7919) % 600);
  const answers = answersFor(form.questions, i);
  const id = randomId('rsp');
  const stored = partial ? answers.slice(0, 4) : answers;
  const metadata = { user_agent: USER_AGENT, referrer: i % 3 ? null : 'https://example.com/landing' };
  const submittedAt = submitted.toISOString();
  const completedAt = partial ? null : submittedAt;
  // The export line Formloom writes with each response, by Formloom's own code (core's CsvLines).
  const csv = form.csvLines.of(form.snapshot, { id, submitted_at: submittedAt, completed_at: completedAt, answers: stored, metadata });
  return [
    id,
    form.id,
    `visitor-${i}`,
    form.versionId,
    form.version,
    JSON.stringify(stored),
    JSON.stringify(metadata),
    partial ? submittedAt : new Date(submitted.getTime() - seconds * 1000).toISOString(),
    submittedAt,
    completedAt,
    partial ? null : seconds,
    partial ? crypto.createHash('sha256').update(`token-${i}`).digest('hex') : null,
    csv.layout,
    csv.line,
  ];
}

/** A prepared INSERT of `rows` rows at once (one round trip to sqlite3's thread per 100 rows, not per row). */
const insertOf = (rows) =>
  'INSERT INTO responses (id, form_id, visitor_id, version_id, version, answers, metadata, quiz_results, started_at, ' +
  'submitted_at, completed_at, completion_seconds, resume_token_hash, unique_visitor, csv_layout, csv_line) VALUES ' +
  Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL, ?, ?)').join(', ');
const ROWS_PER_INSERT = 100;

/** Creates and publishes a bench form through the API; resolves with what `seedResponses` needs of it. */
async function publishedForm(app, title) {
  const { body: created } = await requestJson(app.url, 'POST', `${API}/forms`, { apiKey: app.apiKey, body: formBody(title) });
  const { body: published } = await requestJson(app.url, 'POST', `${API}/forms/${created.id}/publish`, { apiKey: app.apiKey });
  const questions = published.questions.map((q) => ({ id: q.id, type: q.type, title: q.title, properties: q.properties }));
  return {
    id: created.id,
    questions,
    versionId: published.published_version_id,
    version: published.version.version,
    snapshot: { questions, hidden_fields: published.hidden_fields },
    csvLines: new CsvLines(),
  };
}

/**
 * Writes `count` responses of `form` into the SQLite file in one transaction, and their count on the form;
 * `within(db)`, when given, writes more in the same transaction (the filters family's answers index).
 */
async function seedResponses(dbFile, form, count, within) {
  const db = new sqlite3.Database(dbFile);
  try {
    await p(db, 'run', 'PRAGMA busy_timeout = 30000');
    // A page cache that holds the indexes being filled (1 GB at most, in memory only while seeding): with the
    // default 2 MB, a million rows of random ids evicted index pages again and again, each time into the WAL.
    await p(db, 'run', 'PRAGMA cache_size = -1048576');
    await p(db, 'run', 'BEGIN IMMEDIATE');
    const stmt = db.prepare(insertOf(ROWS_PER_INSERT));
    const now = Date.now();
    let failure = null;
    const onDone = (err) => err && !failure && (failure = err);
    const params = (from, to) => {
      const out = [];
      for (let i = from; i < to; i++) out.push(...responseRow(form, i, count, now));
      return out;
    };
    const full = count - (count % ROWS_PER_INSERT);
    const BATCH = 50; // statements queued before waiting for the last: bounded memory in this process
    for (let start = 0; start < full && !failure; start += BATCH * ROWS_PER_INSERT) {
      const end = Math.min(full, start + BATCH * ROWS_PER_INSERT);
      for (let i = start; i < end - ROWS_PER_INSERT; i += ROWS_PER_INSERT) stmt.run(params(i, i + ROWS_PER_INSERT), onDone);
      await new Promise((resolve) => stmt.run(params(end - ROWS_PER_INSERT, end), (err) => (onDone(err), resolve())));
    }
    await new Promise((resolve) => stmt.finalize(resolve));
    if (!failure && full < count) await p(db, 'run', insertOf(count - full), params(full, count)).catch(onDone);
    if (failure) {
      await p(db, 'run', 'ROLLBACK');
      throw failure;
    }
    await p(db, 'run', 'UPDATE forms SET response_count = response_count + ? WHERE id = ?', [count, form.id]);
    await fillRollup((method, sql, params) => p(db, method, sql, params), form, count, (i) => responseRow(form, i, count, now));
    if (within) await within(db);
    await p(db, 'run', 'COMMIT');
    // Start from a checkpointed file (as data written long ago would be), not a WAL of 100 MB.
    await p(db, 'all', 'PRAGMA wal_checkpoint(TRUNCATE)');
    const { n } = await p(db, 'get', 'SELECT count(*) AS n FROM responses WHERE form_id = ?', [form.id]);
    if (n !== count) throw new Error(`seeded ${n} responses instead of ${count}`);
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
}

/** Creates and publishes the form, then seeds its responses. Resolves with the state the phases share. */
async function setup(h) {
  const app = h.formloom;
  const count = h.config.responses;
  const form = await publishedForm(app, 'export');
  const t0 = monoMs();
  const now = Date.now();
  if (app.pg) await seedResponsesPg(app.pg, form, count, (i) => responseRow(form, i, count, now));
  else await seedResponses(app.dbFile, form, count);
  const seedMs = Math.round(monoMs() - t0);
  const bytes = app.pg ? await schemaBytes(app.pg) : fs.statSync(app.dbFile).size;
  const where = app.pg ? `schema ${app.pg.schema}` : 'database';
  h.log(`formloom: seeded ${count} responses of form ${form.id} with one SQL transaction in ${seedMs} ms (${where} ${(bytes / 2 ** 20).toFixed(0)} MB)`);
  // The app sees them: the form's count comes from the database at each request (the revision read).
  const { body: read } = await requestJson(app.url, 'GET', `${API}/forms/${form.id}`, { apiKey: app.apiKey });
  if (read.response_count !== count) throw new Error(`GET /forms/:id counts ${read.response_count} responses after seeding ${count}`);
  return { form, count, seed_ms: seedMs, db_bytes: bytes };
}

// ---- CSV export ----

/** One streamed export: time to first and last byte, bytes, lines, the app's RSS before and at peak. */
async function exportOnce(h, state) {
  const app = h.formloom;
  const cpu = h.cpuWindow();
  const rss = startRssSampler(app.proc.pid, 50);
  let lines = 0;
  let head = '';
  let lastByte = null;
  const r = await timedRequest(app.url, 'GET', `${API}/forms/${state.form.id}/responses/export`, {
    apiKey: app.apiKey,
    onChunk: (c) => {
      if (head.length < 2000 && !head.includes('\n')) head += c.toString('utf8', 0, Math.min(c.length, 2000));
      lines += countNewlines(c);
      lastByte = c[c.length - 1];
    },
  });
  const mem = rss.stop();
  return {
    status: r.status,
    content_type: r.headers['content-type'],
    ms: round(r.end_ms - r.start_ms, 1),
    ttfb_ms: round(r.headers_ms - r.start_ms, 1),
    bytes: r.bytes,
    lines,
    ends_with_newline: lastByte === 10,
    header: head.split('\r\n')[0],
    rss_before_mb: round(mem.before_kb / MB, 1),
    rss_peak_mb: round(mem.peak_kb / MB, 1),
    rss_peak_sampled_mb: round(mem.peak_sampled_kb / MB, 1),
    rss_after_mb: round(mem.after_kb / MB, 1),
    rss_samples: mem.samples,
    hwm_reset: mem.hwm_reset,
    window_us: [Math.round(r.start_ms * 1000), Math.round(r.end_ms * 1000)],
    ...cpu.end(),
  };
}

const median = (xs) => describe(xs, 1).p50;

async function exportPhase(h, state) {
  const errors = [];
  const runs = [];
  // One export first, outside the measure, as the CLI's page cache is warmed below: a server exports
  // with its code compiled; the cold figure is still reported.
  h.log(`formloom: CSV export of ${state.count} responses, warm-up`);
  const warmUp = await exportOnce(h, state);
  if (warmUp.status !== 200) errors.push(`CSV export (warm-up) answered ${warmUp.status}`);
  for (let i = 0; i < h.config.exportRuns; i++) {
    h.log(`formloom: CSV export of ${state.count} responses, run ${i + 1}/${h.config.exportRuns}`);
    const r = await exportOnce(h, state);
    runs.push(r);
    if (r.status !== 200) errors.push(`CSV export answered ${r.status}`);
    if (r.lines !== state.count + 1) errors.push(`CSV export run ${i + 1} has ${r.lines} lines, expected ${state.count + 1}`);
    if (!r.header.startsWith('responseId,submittedAt,completedAt,') || r.header.split(',').length !== 3 + state.form.questions.length) {
      errors.push(`CSV export header is unexpected: ${r.header.slice(0, 200)}`);
    }
  }
  const tool = csvCli(h, state.form.id);
  let cli = [];
  let cliOut = null;
  if (!fs.existsSync(tool.bin)) errors.push(`the ${tool.name} CLI (${tool.bin}) is missing: set ${tool.knob}`);
  else {
    h.log(`${tool.name} CLI: the same rows as CSV, ${h.config.exportRuns} runs`);
    cliOut = await cliOutput(tool); // also warms the page cache, as the exports did
    for (let i = 0; i < h.config.exportRuns; i++) cli.push(await cliOnce(h, tool));
  }
  const ms = median(runs.map((r) => r.ms));
  const cliMs = cli.length ? median(cli.map((r) => r.ms)) : null;
  const peak = Math.max(warmUp.rss_peak_mb, ...runs.map((r) => r.rss_peak_mb));
  const ratio = cliMs ? round(ms / cliMs, 2) : null;
  const lines = runs.map((r) => r.lines);
  const rows = [
    { what: 'Formloom export, warm-up (not in the median)', ms: warmUp.ms.toFixed(0), ttfb: warmUp.ttfb_ms.toFixed(1), rows_s: Math.round((state.count / warmUp.ms) * 1000), mb: (warmUp.bytes / 2 ** 20).toFixed(1), lines: warmUp.lines, rss: `${warmUp.rss_before_mb.toFixed(0)} -> ${warmUp.rss_peak_mb.toFixed(0)}` },
    ...runs.map((r, i) => ({
      what: `Formloom export, run ${i + 1}`,
      ms: r.ms.toFixed(0),
      ttfb: r.ttfb_ms.toFixed(1),
      rows_s: Math.round((state.count / r.ms) * 1000),
      mb: (r.bytes / 2 ** 20).toFixed(1),
      lines: r.lines,
      rss: `${r.rss_before_mb.toFixed(0)} -> ${r.rss_peak_mb.toFixed(0)}`,
      threads: r.app_threads_cpu_pct ? `${r.app_threads_cpu_pct.main} / ${r.app_threads_cpu_pct.other}` : null,
      other_cpu: r.other_cpu_pct,
    })),
    ...cli.map((r, i) => ({
      what: `${tool.label}, run ${i + 1}`,
      ms: r.ms.toFixed(0),
      rows_s: Math.round((state.count / r.ms) * 1000),
      mb: cliOut ? (cliOut.bytes / 2 ** 20).toFixed(1) : null,
      lines: cliOut ? cliOut.lines : null,
      other_cpu: r.other_cpu_pct,
    })),
  ];
  return {
    table: {
      title: `CSV export of ${state.count} responses (GET /forms/:id/responses/export over HTTP, body discarded) vs the ${tool.name} CLI`,
      columns: [
        { key: 'what', title: 'run' },
        { key: 'ms', title: 'time ms', right: true },
        { key: 'ttfb', title: 'first byte ms', right: true },
        { key: 'rows_s', title: 'rows/s', right: true },
        { key: 'mb', title: 'MB', right: true },
        { key: 'lines', title: 'lines', right: true },
        { key: 'rss', title: 'app RSS MB (before -> peak)', right: true },
        { key: 'threads', title: 'app CPU % main / other threads', right: true },
        { key: 'other_cpu', title: 'other CPU %', right: true },
      ],
      rows,
    },
    checks: [
      { check: 'CSV export: lines (header + one per response)', value: lines.join(' '), target: `= ${state.count + 1}`, pass: lines.every((n) => n === state.count + 1) },
      { check: 'CSV export: peak RSS of the app', value: `${peak.toFixed(1)} MB`, target: `< ${TARGETS.exportPeakRssMb} MB`, pass: peak < TARGETS.exportPeakRssMb },
      {
        check: `CSV export: time / ${tool.name} CLI time (medians)`,
        value: ratio === null ? null : `${ratio}x (${ms.toFixed(0)} / ${cliMs.toFixed(0)} ms)`,
        target: `<= ${TARGETS.exportTimeRatio}x`,
        pass: ratio !== null && ratio <= TARGETS.exportTimeRatio,
      },
    ],
    result: {
      responses: state.count,
      seed_ms: state.seed_ms,
      db_bytes: state.db_bytes,
      export: { median_ms: ms, peak_rss_mb: peak, warm_up: warmUp, runs },
      [`${tool.name}_cli`]: { median_ms: cliMs, bytes: cliOut && cliOut.bytes, lines: cliOut && cliOut.lines, runs: cli },
      time_ratio: ratio,
      targets: TARGETS,
    },
    errors,
  };
}

// ---- analytics ----

/**
 * The rollup read of SqlResponseRepository.analytics (no since/until: storage-typeorm
 * repositories/response-days.ts, copied here: keep the two in step), run alone on the same database.
 */
const ANALYTICS_SQL =
  'SELECT day, total, completed, seconds_sum, seconds_count FROM response_days WHERE form_id = ? AND total > 0';

async function analyticsPhase(h, state) {
  const app = h.formloom;
  const n = h.config.analyticsRequests;
  const errors = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const analyticsPath = `${API}/forms/${state.form.id}/analytics`;
  const floorPath = `${API}/forms/${state.form.id}`;
  const get = (path) => timedRequest(app.url, 'GET', path, { apiKey: app.apiKey, agent });
  for (let i = 0; i < 3; i++) (await get(analyticsPath), await get(floorPath)); // warm-up, not measured
  const analytics = [];
  const floor = [];
  let body = null;
  const cpu = h.cpuWindow();
  const t0 = monoMs();
  // Alternate the two requests, so a burst of other work on the machine hits both series alike.
  for (let i = 0; i < n; i++) {
    const a = await get(analyticsPath);
    if (a.status !== 200) errors.push(`GET /forms/:id/analytics answered ${a.status}: ${a.text.slice(0, 200)}`);
    analytics.push(a.end_ms - a.start_ms);
    body = a.text;
    const f = await get(floorPath);
    if (f.status !== 200) errors.push(`GET /forms/:id answered ${f.status}`);
    floor.push(f.end_ms - f.start_ms);
  }
  const window_us = [Math.round(t0 * 1000), Math.round(monoMs() * 1000)];
  const cpuEnd = cpu.end();
  agent.destroy();
  let parsed = null;
  try {
    parsed = JSON.parse(body);
  } catch {
    errors.push('GET /forms/:id/analytics answered no JSON');
  }
  if (parsed && parsed.total_responses !== state.count) errors.push(`analytics counts ${parsed.total_responses} responses, expected ${state.count}`);

  // The aggregate query alone, on a connection of this process (the app's own driver: sqlite3 or pg).
  const db = await statementAlone(app, ANALYTICS_SQL);
  const query = [];
  let queryCpu = null;
  try {
    for (let i = 0; i < 2; i++) await db.run(state.form.id);
    const qcpu = h.cpuWindow();
    for (let i = 0; i < n; i++) {
      const q0 = monoMs();
      await db.run(state.form.id);
      query.push(monoMs() - q0);
    }
    queryCpu = qcpu.end();
  } finally {
    await db.close();
  }
  const A = describe(analytics);
  const F = describe(floor);
  const Q = describe(query);
  const row = (what, d, extra = {}) => ({ what, n: d.n, p50: d.p50.toFixed(2), p95: d.p95.toFixed(2), max: d.max.toFixed(2), ...extra });
  return {
    table: {
      title: `Analytics over ${state.count} responses (${n} sequential requests, one keep-alive connection)`,
      columns: [
        { key: 'what', title: 'measure' },
        { key: 'n', title: 'n', right: true },
        { key: 'p50', title: 'p50 ms', right: true },
        { key: 'p95', title: 'p95 ms', right: true },
        { key: 'max', title: 'max ms', right: true },
        { key: 'other_cpu', title: 'other CPU %', right: true },
      ],
      rows: [
        row('GET /forms/:id/analytics', A, { other_cpu: cpuEnd.other_cpu_pct }),
        row('GET /forms/:id (HTTP floor: auth, form read, JSON)', F),
        { what: 'analytics - floor (p50): server-side aggregate work', p50: (A.p50 - F.p50).toFixed(2) },
        row(`the aggregate query alone (${db.label})`, Q, { other_cpu: queryCpu.other_cpu_pct }),
      ],
    },
    checks: [
      { check: 'analytics: p50 of GET /forms/:id/analytics', value: `${A.p50.toFixed(1)} ms`, target: `< ${TARGETS.analyticsMs} ms`, pass: A.p50 < TARGETS.analyticsMs },
      { check: 'analytics: p95 of GET /forms/:id/analytics', value: `${A.p95.toFixed(1)} ms`, target: `< ${TARGETS.analyticsMs} ms`, pass: A.p95 < TARGETS.analyticsMs },
    ],
    result: {
      responses: state.count,
      analytics_ms: A,
      floor_get_form_ms: F,
      server_side_estimate_ms: round(A.p50 - F.p50),
      query_alone_ms: Q,
      query_alone_other_cpu_pct: queryCpu.other_cpu_pct,
      by_day_entries: parsed && parsed.responses_by_day ? parsed.responses_by_day.length : null,
      window_us,
      ...cpuEnd,
      targets: TARGETS,
    },
    errors,
  };
}

const phases = [
  { name: 'CSV export', run: exportPhase },
  { name: 'analytics', run: analyticsPhase },
];

module.exports = { family: 'stored-responses', setup, phases, publishedForm, seedResponses, responseRow };
