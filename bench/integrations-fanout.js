'use strict';
// Integrations fan-out with a kill -9 in the middle (issue 37's budget: 10,000 responses in a minute to 3
// integrations, none lost or duplicated). The self-hosted app runs as a child process on SQLite with a Slack, a
// Discord and a REST Hooks integration on one form, each delivering to a local receiver in this process.
// Responses are submitted at BENCH_FANOUT_RATE per second; when half are in, the app is killed with SIGKILL
// and started again on the same data, and the rest are submitted to it. Then it waits for every acknowledged
// response to reach every receiver and prints what was lost and what came twice, per receiver.
//
//   node bench/integrations-fanout.js            # BENCH_FANOUT_RESPONSES=10000 BENCH_FANOUT_RATE=167 (the budget)
//   BENCH_FANOUT_RESPONSES=3000 node bench/integrations-fanout.js
//   BENCH_ONLY=fanout node bench/run.js          # the same as a bench family, with its targets (scenarios/fanout.js)
//
// Leases of the killed worker are moved into the past in the database before the restart (as
// examples/self-hosted/test/plugin-crash.test.ts does): the figure is about loss and duplication, not about
// how long a lease lasts (60 s).
const { spawn } = require('node:child_process');
const http = require('node:http');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const N = Number(process.env.BENCH_FANOUT_RESPONSES ?? 10_000);
const RATE = Number(process.env.BENCH_FANOUT_RATE ?? 167);
const MAIN = resolve(__dirname, '../examples/self-hosted/dist/src/main.js');

function startApp(env) {
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

/** A receiver that records the response id each message names (`pick`), answering as its service does. */
function receiver(pick, answer) {
  const seen = new Map();
  /** Response id -> the X-Formloom-Delivery ids it came with (REST Hooks sends one; chat services get none). */
  const deliveries = new Map();
  let messages = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = pick(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      messages++;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const d = req.headers['x-formloom-delivery'];
      if (d) deliveries.set(id, (deliveries.get(id) ?? new Set()).add(d));
      answer(res);
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}`, seen, deliveries, count: () => messages, close: () => server.close() })),
  );
}

const idIn = (text) => /(rsp_[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

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
  const receivers = {
    slack: await receiver((m) => idIn(JSON.stringify(m.blocks.at(-1))), (res) => res.end('ok')),
    discord: await receiver((m) => idIn(m.embeds[0].url), (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"1"}')),
    zapier: await receiver((m) => m.response_id, (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}')),
  };
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
  for (const [type, r] of [['slack', receivers.slack], ['discord', receivers.discord]]) {
    const made = await call('POST', `/forms/${form.id}/integrations`, { type, config: { webhook_url: `${r.url}/hook` } });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  }
  if ((await call('POST', `/forms/${form.id}/hooks`, { target_url: `${receivers.zapier.url}/catch`, event: 'response.submitted' })).status !== 201) throw new Error('subscribe');

  const acked = new Set();
  let failed = 0;
  const started = Date.now();
  const submitRange = async (from, to) => {
    const pending = [];
    for (let i = from; i < to; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(
        call('POST', `/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: `n${i}` }] }, false)
          .then((r) => (r.status === 201 ? acked.add(r.body.id) : failed++))
          .catch(() => failed++),
      );
    }
    await Promise.all(pending);
  };
  console.error(`submitting ${N} responses at ${RATE}/s; kill -9 after ${Math.floor(N / 2)}`);
  await submitRange(0, Math.floor(N / 2));
  const beforeKill = Object.fromEntries(Object.entries(receivers).map(([k, r]) => [k, r.count()]));
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  const { createDataSource } = require('@formloom/storage-typeorm');
  const db = createDataSource(env.FORMLOOM_DATABASE_URL);
  await db.initialize();
  const [{ n: pendingAtKill }] = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'integrations.delivery' AND status = 'pending'`);
  const past = new Date(Date.now() - 1000).toISOString();
  await db.query(`UPDATE outbox SET locked_until = CASE WHEN locked_until IS NULL THEN NULL ELSE ? END, next_attempt_at = ? WHERE status = 'pending'`, [past, past]);
  await db.destroy();
  app = await startApp(env);
  console.error('restarted; submitting the rest');
  await submitRange(Math.floor(N / 2), N);
  const submittedMs = Date.now() - started;
  const deadline = Date.now() + 180_000;
  const done = () => Object.values(receivers).every((r) => [...acked].every((id) => r.seen.has(id)));
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const drainedMs = Date.now() - started;
  const report = { responses: N, rate_per_s: RATE, acknowledged: acked.size, refused_or_cut_at_kill: failed, submitted_ms: submittedMs, all_delivered_ms: drainedMs, pending_deliveries_at_kill: Number(pendingAtKill), received_before_kill: beforeKill };
  for (const [name, r] of Object.entries(receivers)) {
    const lost = [...acked].filter((id) => !r.seen.has(id)).length;
    const twice = [...r.seen.values()].filter((n) => n > 1).length;
    const unacked = [...r.seen.keys()].filter((id) => !acked.has(id)).length;
    const ids = [...r.deliveries.values()];
    report[name] = {
      messages: r.count(),
      lost,
      delivered_twice: twice,
      for_unacknowledged_responses: unacked,
      // A receiver that de-duplicates on X-Formloom-Delivery takes each response once when every repeat carries one id.
      ...(ids.length ? { delivery_ids_per_response_max: Math.max(...ids.map((x) => x.size)), twice_after_dedupe_by_delivery_id: ids.filter((x) => x.size > 1).length } : {}),
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
