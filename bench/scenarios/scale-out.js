'use strict';
// Scale-out family (docs/scaling.md): capacity past one machine, measured and modelled, always on PostgreSQL
// (BENCH_PG_URL; skipped with a message when it cannot make a database there), whatever BENCH_DATABASE says.
// Each run makes a database of its own, so pg_stat_statements and the backends' CPU show only its instances.
//   - "database work per request": one instance, its database connections through a counting relay
//     (lib/pg-wire.js); each hot route under autocannon at 1 and 10 connections; statements, round trips,
//     rows, bytes, statement time (pg_stat_statements, where the server preloads it), WAL, backend and app
//     CPU per request, less the idle instance's background. Webhook delivery: the work a webhook adds to a
//     submission (outbox row, claim, attempt), from two equal series of submissions with and without one.
//   - "instances behind a proxy": 1, 2, 3 instances (BENCH_SCALE_OUT_INSTANCES) behind a round-robin proxy
//     (lib/proxy.js) on the one database, GET /forms/:id and submissions at the largest connection count.
//   - "capacity model": lib/capacity-model.js over those figures.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { requestJson, mapLimit } = require('../lib/http');
const { runLoad } = require('../lib/load');
const { sleep } = require('../lib/process');
const { monoMs } = require('../lib/stats');
const { startPgWireCounter } = require('../lib/pg-wire');
const { createDatabase, openProbe } = require('../lib/pg-stats');
const { deployment, userWithKey } = require('../lib/instances');
const { startWorkWindow, perRequest, perSecond, difference } = require('../lib/db-work');
const { seedForms, formBody } = require('./forms');
const { answersFor } = require('./ingest');
const { startReceivers } = require('./webhooks');
const { instancesPhase } = require('../lib/scale-out-instances');
const { modelPhase } = require('../lib/scale-out-model');

const API = '/api/v1';
const env = process.env;
const EXPORT_ROWS = Number(env.BENCH_SCALE_OUT_EXPORT_ROWS || 1000);
const DELIVERIES = Number(env.BENCH_SCALE_OUT_DELIVERIES || 300);
const SEEDED_FORMS = 100;

// ---- request factories (run inside bench/load.js) ----
const pick = (arr) => arr[Math.floor(Math.random() * arr.length)];
const getFormRequests = ({ ids }) => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${API}/forms/${pick(ids)}` }) }];
const publicFormRequests = ({ slug }) => [{ method: 'GET', path: `${API}/public/forms/${slug}` }];
const listRequests = ({ formId, pages }) => [
  { method: 'GET', setupRequest: (req) => ({ ...req, path: `${API}/forms/${formId}/responses?per_page=50&page=${1 + Math.floor(Math.random() * pages)}` }) },
];
const exportRequests = ({ formId }) => [{ method: 'GET', path: `${API}/forms/${formId}/responses/export` }];
const INGEST = require.resolve('./ingest');

/** The hot routes measured per request: [name, module, factory, args(state), connections]. */
const ROUTES = [
  ['GET /forms/:id', __filename, 'getFormRequests', (s) => ({ ids: s.ids }), [1, 10]],
  ['GET /public/forms/:slug', __filename, 'publicFormRequests', (s) => ({ slug: s.submitForm.slug }), [1, 10]],
  ['POST /public/forms/:slug/responses', INGEST, 'submitResponseRequests', (s) => ({ slug: s.submitForm.slug, questions: s.submitForm.questions }), [1, 10]],
  ['GET /forms/:id/responses (50 a page)', __filename, 'listRequests', (s) => ({ formId: s.exportForm.id, pages: Math.ceil(EXPORT_ROWS / 50) }), [1, 10]],
  [`GET /forms/:id/responses/export (${EXPORT_ROWS} rows)`, __filename, 'exportRequests', (s) => ({ formId: s.exportForm.id }), [1, 2]],
];

/** Creates and publishes a bench form; resolves with { id, slug, questions }. */
async function published(url, apiKey, title) {
  const { body: form } = await requestJson(url, 'POST', `${API}/forms`, { apiKey, body: formBody(title) });
  const { body } = await requestJson(url, 'POST', `${API}/forms/${form.id}/publish`, { apiKey });
  return { id: form.id, slug: body.slug, questions: body.questions.map((q) => ({ id: q.id, type: q.type, properties: q.properties })) };
}

/** `count` submissions to `form`, `concurrency` at a time; resolves with how many answered 201. */
async function submitMany(url, form, count, concurrency, tag) {
  const codes = await mapLimit(count, concurrency, async (i) => {
    const res = await fetch(`${url}${API}/public/forms/${form.slug}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: answersFor(form.questions, i), visitor_id: `${tag}-${i}` }),
    });
    await res.arrayBuffer();
    return res.status;
  });
  return codes.filter((c) => c === 201).length;
}

/** GETs every seeded form once on instance `url`, so the runs measure its caches warm, as a serving instance has them. */
const warm = (url, apiKey, ids) => mapLimit(ids.length, 4, (i) => requestJson(url, 'GET', `${API}/forms/${ids[i]}`, { apiKey }));

/**
 * The family's database, the counting relay in front of PostgreSQL, the probe, one instance relayed, its
 * user and seeded forms. Resolves with { skipped } when PostgreSQL cannot be used.
 */
async function setup(h) {
  const tag = `${Date.now().toString(36)}_${process.pid}`;
  const name = `formloom_scaleout_${tag}`;
  let db;
  try {
    db = await createDatabase(h.config.pgUrl, name);
  } catch (e) {
    h.log(`scale-out: skipped, no database can be made at BENCH_PG_URL (${e.message})`);
    return { skipped: `PostgreSQL at BENCH_PG_URL: ${e.message}` };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-scale-out-'));
  const probe = await openProbe(db.url);
  if (!probe.statements) h.log(`scale-out: no pg_stat_statements (${probe.reason}): statement time columns stay empty`);
  const pg = new URL(db.url);
  const wire = await startPgWireCounter({ host: pg.hostname, port: Number(pg.port || 5432) });
  const relayed = new URL(db.url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(wire.port);
  const deploy = deployment({ databaseUrl: db.url, dataDir, appEnv: h.config.appEnv, echo: h.config.echo });
  const state = { db, dataDir, probe, wire, deploy, instances: [], skipped: null, work: null, runs: null };
  state.warm = (instance) => warm(instance.url, state.apiKey, state.ids);
  state.close = async () => {
    for (const i of state.instances.splice(0)) await i.proc.stop();
    await wire.close();
    await probe.close().catch(() => undefined);
    if (!h.config.keepData) {
      await db.drop().catch((e) => h.log(`scale-out: dropping ${name} failed: ${e.message}`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    } else h.log(`scale-out: data kept in database ${name} and ${dataDir}`);
  };
  try {
    const counted = await deploy.start('counted', { databaseUrl: relayed.toString() });
    state.instances.push(counted);
    state.apiKey = await userWithKey(deploy.cli, 'scale-out@example.com');
    state.ids = await seedForms(counted.url, state.apiKey, { count: SEEDED_FORMS, concurrency: 4 });
    state.submitForm = await published(counted.url, state.apiKey, 'scale-out submit');
    state.exportForm = await published(counted.url, state.apiKey, 'scale-out export');
    const ok = await submitMany(counted.url, state.exportForm, EXPORT_ROWS, 8, 'seed');
    if (ok !== EXPORT_ROWS) throw new Error(`seeding the export form: ${ok}/${EXPORT_ROWS} submissions answered 201`);
    await state.warm(counted);
    h.log(`scale-out: database ${name}, ${SEEDED_FORMS} forms and ${EXPORT_ROWS} responses seeded through the API`);
  } catch (e) {
    await state.close();
    throw e;
  }
  return state;
}

/** Phase 1: what one request of each hot route costs the database (and the app), on one relayed instance. */
async function workPhase(h, state) {
  if (state.skipped) return skippedResult(state.skipped);
  const counted = state.instances[0];
  const pids = [counted.proc.pid];
  const errors = [];
  const win = () => startWorkWindow({ wire: state.wire, probe: state.probe, pids });
  // The idle instance's own work (outbox polls, counters' flush), subtracted from every window by its length.
  await sleep(1000);
  const idle = await win();
  await sleep(3000);
  const background = perSecond(await idle.end());
  const rows = [];
  const work = { background_per_s: background, routes: {} };
  for (const [name, module, factory, args, connectionCounts] of ROUTES) {
    for (const connections of connectionCounts) {
      h.log(`scale-out: ${name} @ ${connections} connections (1 s warm-up + ${h.config.duration} s)`);
      const w = await win();
      const load = await runLoad({
        url: counted.url,
        connections,
        duration: h.config.duration,
        warmup: 1,
        headers: { authorization: `Bearer ${state.apiKey}` },
        requests: { module, export: factory, args: args(state) },
      });
      await sleep(400); // the rate-limit counters' write-behind (200 ms) lands inside the window
      const served = load.requests_total + (load.warmup_requests || 0);
      const per = perRequest(await w.end(), served, background);
      if (load.non2xx || load.errors) errors.push(`${name} @${connections}: ${load.non2xx} non-2xx, ${load.errors} errors`);
      ((work.routes[name] ??= {})[connections] = { ...per, rps: load.rps, p99_ms: load.latency_ms.p99 });
      rows.push(row(name, connections, per, load.rps));
    }
  }
  const delivery = await deliveryWork(h, state, win, background, errors);
  if (delivery) {
    work.routes['webhook delivery'] = { 10: delivery };
    rows.push(row('webhook delivery (work added to a submission)', 10, delivery, null));
  }
  state.work = work;
  return {
    table: {
      title:
        `Scale-out: database work per request on PostgreSQL (one instance; counts from the wire, statement time ` +
        `from pg_stat_statements${state.probe.statements ? '' : ': NOT LOADED, columns empty'}; times measured on a busy ` +
        `machine: counts are exact, µs vary; idle background ${fmt(background.statements, 1)} statements/s subtracted)`,
      columns: WORK_COLUMNS,
      rows,
    },
    checks: [],
    result: { ...work, pg_stat_statements: state.probe.statements, pg_stat_statements_reason: state.probe.reason },
    errors,
  };
}

/** The work a webhook adds: N submissions with one webhook (and their deliveries) less N without. */
async function deliveryWork(h, state, win, background, errors) {
  const counted = state.instances[0];
  const rx = await startReceivers(1);
  try {
    const form = await published(counted.url, state.apiKey, 'scale-out webhook');
    await requestJson(counted.url, 'PUT', `${API}/forms/${form.id}/webhooks`, { apiKey: state.apiKey, body: { url: `http://127.0.0.1:${rx.ports[0]}/hooks/0` } });
    h.log(`scale-out: webhook delivery: ${DELIVERIES} submissions without a webhook, then ${DELIVERIES} with one`);
    const plain = await win();
    const okPlain = await submitMany(counted.url, state.submitForm, DELIVERIES, 10, 'plain');
    await sleep(400);
    const plainWork = perRequest(await plain.end(), DELIVERIES, background);
    const hooked = await win();
    const okHooked = await submitMany(counted.url, form, DELIVERIES, 10, 'hooked');
    const deadline = monoMs() + h.config.webhookWaitS * 1000;
    let arrived = 0;
    while ((arrived = (await rx.call('count')).count) < okHooked && monoMs() < deadline) await sleep(50);
    await sleep(1000); // the worker's settlements are written in batches after the arrivals
    const hookedWork = perRequest(await hooked.end(), DELIVERIES, background);
    if (okPlain !== DELIVERIES || okHooked !== DELIVERIES) errors.push(`webhook delivery: ${okPlain} and ${okHooked} of ${DELIVERIES} submissions answered 201`);
    if (arrived !== okHooked) errors.push(`webhook delivery: ${arrived} of ${okHooked} deliveries arrived`);
    return { ...difference(hookedWork, plainWork), submission_without: plainWork, submission_with: hookedWork };
  } finally {
    await rx.stop();
  }
}

const fmt = (n, d = 2) => (n == null ? null : Number(n).toFixed(d));
const WORK_COLUMNS = [
  { key: 'route', title: 'route' },
  { key: 'conns', title: 'conns', right: true },
  { key: 'rps', title: 'req/s', right: true },
  { key: 'statements', title: 'statements', right: true },
  { key: 'round_trips', title: 'round trips', right: true },
  { key: 'rows', title: 'rows returned', right: true },
  { key: 'pss_rows', title: 'rows (pss)', right: true },
  { key: 'kb', title: 'wire kB', right: true },
  { key: 'exec', title: 'stmt µs', right: true },
  { key: 'wal', title: 'WAL B', right: true },
  { key: 'db_cpu', title: 'PG CPU µs', right: true },
  { key: 'app_cpu', title: 'app CPU µs', right: true },
  { key: 'reads', title: 'read share', right: true },
];
function row(route, conns, p, rps) {
  return {
    route,
    conns,
    rps: rps == null ? null : fmt(rps, 0),
    statements: fmt(p.statements),
    round_trips: fmt(p.round_trips),
    rows: fmt(p.rows_returned, 1),
    pss_rows: fmt(p.pss_rows, 1),
    kb: p.bytes == null ? null : fmt(p.bytes / 1024, 1),
    exec: p.db_exec_us,
    wal: p.wal_bytes,
    db_cpu: p.db_cpu_us,
    app_cpu: p.app_cpu_us,
    reads: p.read_share,
  };
}

function skippedResult(reason, phase = 'database work per request') {
  return { table: { title: `Scale-out, ${phase}: skipped (${reason})`, columns: [{ key: 'x', title: '' }], rows: [] }, checks: [], result: { skipped: reason }, errors: [] };
}

/** Phases 2 and 3 (lib/scale-out-instances.js, lib/scale-out-model.js), after a skip check. */
const unlessSkipped = (phase, run) => (h, state) => (state.skipped ? skippedResult('see above', phase) : run(h, state));
/** Stops the family's instances and relay, drops its database (run.js calls it after the phases). */
const teardown = async (_h, state) => state && !state.skipped && state.close();

const phases = [
  { name: 'database work per request', run: workPhase },
  { name: 'instances behind a proxy', run: unlessSkipped('instances behind a proxy', instancesPhase) },
  { name: 'capacity model', run: unlessSkipped('capacity model', modelPhase) },
];

module.exports = { family: 'scale-out', setup, teardown, phases, getFormRequests, publicFormRequests, listRequests, exportRequests, fmt, skippedResult, INGEST };
