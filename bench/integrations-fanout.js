'use strict';
// Integrations fan-out with a kill -9 in the middle (issue 37's budget: 10,000 responses in a minute to 3
// integrations, none lost or duplicated). The self-hosted app runs as a child process on SQLite with five
// integrations on one form, each delivering to a local receiver in this process that speaks its service's API
// and keeps what the service would keep (bench/fanout-receivers.js): the budget's three, REST Hooks, Google
// Chat and Notion, which make a retry after a restart create nothing twice (docs/integrations.md, "Exactly
// once or at least once"), and Slack and Discord, whose webhooks take no key (their repeats are informational).
// Responses are submitted at BENCH_FANOUT_RATE per second; when half are in, the app is killed with SIGKILL
// and started again on the same data, and the rest are submitted to it. Then it waits for every acknowledged
// response to reach every receiver and prints, per receiver, what was lost and what it stored twice.
//
//   node bench/integrations-fanout.js            # BENCH_FANOUT_RESPONSES=10000 BENCH_FANOUT_RATE=167 (the budget)
//   BENCH_FANOUT_RESPONSES=3000 node bench/integrations-fanout.js
//   BENCH_ONLY=fanout node bench/run.js          # the same as a bench family, with its targets (scenarios/fanout.js)
//
// Leases of the killed worker are moved into the past in the database before the restart (as
// examples/self-hosted/test/plugin-crash.test.ts does): the figure is about loss and duplication, not about
// how long a lease lasts (60 s).
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const R = require('./fanout-receivers');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const N = Number(process.env.BENCH_FANOUT_RESPONSES ?? 10_000);
const RATE = Number(process.env.BENCH_FANOUT_RATE ?? 167);
const MAIN = resolve(__dirname, '../examples/self-hosted/dist/src/main.js');
const NOTION = resolve(__dirname, '../plugins/notion/dist/src/index.js');

// Extra node flags of the app, as bench/run.js takes them (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof': the
// restarted app's profile is written at its SIGTERM; the killed one writes none).
const APP_NODE_ARGS = (process.env.BENCH_APP_NODE_ARGS || '').split(/\s+/).filter(Boolean);

function startApp(env) {
  const child = spawn(process.execPath, [...APP_NODE_ARGS, MAIN], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  // Its JSON log lines are read until it says where it listens, then dropped.
  let out = '';
  return new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Formloom listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) ok({ child, url: m[1] });
      if (out.length > 100_000) out = out.slice(-10_000);
    });
    child.once('exit', () => fail(new Error(`exited early: ${out.slice(-2000)}`)));
  });
}

/** CPU seconds (user + system, all threads) a child has used so far, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-fanout-'));
  const env = {
    ...process.env,
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
    FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
    // One client submits everything, as the other benches do: no per-address limit.
    FORMLOOM_RATE_LIMITS: 'off',
  };
  const NOTION_DB = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
  // The budget's three (exactly once through the kill) and the chat webhooks that take no key (informational).
  const receivers = {
    rest_hooks: await R.restHooks(),
    google_chat: await R.googleChat(),
    notion: await R.notion(NOTION_DB),
    slack: await R.slack(),
    discord: await R.discord(),
  };
  // Notion's API address is the operator's setting of its plugin (formloom.config.mjs).
  const config = join(dir, 'formloom.config.mjs');
  writeFileSync(config, `import { notionPlugin } from ${JSON.stringify(NOTION)};\nexport default { plugins: [notionPlugin({ baseUrl: ${JSON.stringify(receivers.notion.url)} })] };\n`);
  env.FORMLOOM_CONFIG = config;
  const { runCli } = require('@formloom/cli');
  await runCli(['user', 'create', '--email', 'owner@example.com'], env);
  const { api_key: key } = JSON.parse((await runCli(['key', 'create', '--user', 'owner@example.com'], env)).stdout);
  let app = await startApp(env);
  const call = (method, path, body, auth = true) =>
    fetch(`${app.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const form = (await call('POST', '/forms', { title: 'Fan-out', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
  const integrations = [
    ['google-chat', { webhook_url: `${receivers.google_chat.url}/v1/spaces/AAA/messages?key=k&token=t` }],
    ['notion', { database: NOTION_DB, token: 'ntn_bench' }],
    ['slack', { webhook_url: `${receivers.slack.url}/hook` }],
    ['discord', { webhook_url: `${receivers.discord.url}/hook` }],
  ];
  for (const [type, config] of integrations) {
    const made = await call('POST', `/forms/${form.id}/integrations`, { type, config });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  }
  if ((await call('POST', `/forms/${form.id}/hooks`, { target_url: `${receivers.rest_hooks.url}/catch`, event: 'response.submitted' })).status !== 201) throw new Error('subscribe');

  const acked = new Set();
  let failed = 0;
  // Why submissions were not acknowledged: an HTTP status, or the client's error code (a request cut by the kill).
  const failures = {};
  const fail = (why) => {
    failed++;
    failures[why] = (failures[why] ?? 0) + 1;
  };
  const started = Date.now();
  const submitRange = async (from, to) => {
    const pending = [];
    for (let i = from; i < to; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(
        call('POST', `/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: `n${i}` }] }, false)
          .then((r) => (r.status === 201 ? acked.add(r.body.id) : fail(String(r.status))))
          .catch((e) => fail(e.cause?.code ?? e.name)),
      );
    }
    await Promise.all(pending);
  };
  console.error(`submitting ${N} responses at ${RATE}/s; kill -9 after ${Math.floor(N / 2)}`);
  await submitRange(0, Math.floor(N / 2));
  const beforeKill = Object.fromEntries(Object.entries(receivers).map(([k, r]) => [k, r.requests()]));
  const cpuBeforeKill = cpuSeconds(app.child.pid);
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  const { createDataSource } = require('@formloom/storage-typeorm');
  const db = createDataSource(env.FORMLOOM_DATABASE_URL);
  await db.initialize();
  const [{ n: pendingAtKill }] = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'integrations.delivery' AND status = 'pending'`);
  // Runs started (a lease counted) and never settled: the deliveries a retry will send as "may have been sent".
  const [{ n: startedAtKill }] = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'integrations.delivery' AND status = 'pending' AND locked_until IS NOT NULL`);
  const past = new Date(Date.now() - 1000).toISOString();
  await db.query(`UPDATE outbox SET locked_until = CASE WHEN locked_until IS NULL THEN NULL ELSE ? END, next_attempt_at = ? WHERE status = 'pending'`, [past, past]);
  await db.destroy();
  app = await startApp(env);
  console.error('restarted; submitting the rest');
  await submitRange(Math.floor(N / 2), N);
  const submittedMs = Date.now() - started;
  const deadline = Date.now() + 180_000;
  const done = () => Object.values(receivers).every((r) => {
    const kept = r.stored();
    return [...acked].every((id) => kept.has(id));
  });
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const drainedMs = Date.now() - started;
  const cpuAfter = cpuSeconds(app.child.pid);
  // The log's view of the restart: deliveries sent again as "may have been sent", per integration type.
  const db2 = createDataSource(env.FORMLOOM_DATABASE_URL);
  await db2.initialize();
  const noted = await db2.query(
    `SELECT i.type AS type, COUNT(*) AS n FROM integration_deliveries d JOIN integrations i ON i.id = d.integration_id WHERE d.last_error = ? GROUP BY i.type`,
    ['Sent again after a restart: it may appear twice'],
  );
  await db2.destroy();
  const report = {
    responses: N, rate_per_s: RATE, acknowledged: acked.size, refused_or_cut_at_kill: failed, not_acknowledged_why: failures, submitted_ms: submittedMs, all_delivered_ms: drainedMs,
    pending_deliveries_at_kill: Number(pendingAtKill), leased_deliveries_at_kill: Number(startedAtKill), requests_before_kill: beforeKill,
    // The app's CPU (both instances, all threads) from its start to the last delivery: comparable between builds on a busy machine.
    app_cpu_s: cpuBeforeKill === null || cpuAfter === null ? null : Math.round((cpuBeforeKill + cpuAfter) * 10) / 10,
    logged_may_appear_twice: Object.fromEntries(noted.map((r) => [r.type, Number(r.n)])),
  };
  for (const [name, r] of Object.entries(receivers)) {
    const kept = r.stored();
    report[name] = {
      requests: r.requests(),
      lost: [...acked].filter((id) => !kept.has(id)).length,
      // Responses the service keeps more than one record (message, page) of.
      stored_twice: [...kept.values()].filter((n) => n > 1).length,
      for_unacknowledged_responses: [...kept.keys()].filter((id) => !acked.has(id)).length,
      // Repeats the service recognised (Google Chat's 409, Notion's look-up finding the page, a delivery id seen before).
      repeats_recognised: r.repeatsRefused(),
      ...(r.lookups ? { lookups: r.lookups() } : {}),
    };
  }
  console.log(JSON.stringify(report, null, 2));
  app.child.kill('SIGTERM');
  await new Promise((r) => app.child.once('exit', r));
  for (const r of Object.values(receivers)) r.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
