'use strict';
// Webhooks family: delivery latency and exactly-once arrival. A Pro user's published form has 3 webhook
// URLs (the form's `webhook_url` + 2 global webhooks), each a local HTTP receiver in a separate child
// process (bench/webhook-receivers.js). The bench submits responses, a fixed number at a time, and the
// receivers record each delivery's arrival and check its signature with the secret of
// GET /api/v1/webhooks/secret. Latency of a delivery = its arrival - the moment its submission's request
// was sent (both on the machine's monotonic clock); the same from the 201's arrival is reported too.
const http = require('node:http');
const path = require('node:path');
const { fork } = require('node:child_process');
const { requestJson, timedRequest, mapLimit } = require('../lib/http');
const { describe, round, monoMs } = require('../lib/stats');
const { sleep } = require('../lib/process');
const { formBody } = require('./forms');
const { answersFor } = require('./ingest');

const API = '/api/v1';
const RECEIVERS = path.join(__dirname, '..', 'webhook-receivers.js');
// Issue 21: a new outbox item is picked up at once, not at the next poll.
const TARGETS = { p99Ms: 200 };

/** Forks the receivers process; resolves with { pid, ports, call(cmd, extra), stop() }. */
async function startReceivers(count) {
  const child = fork(RECEIVERS, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let next = 0;
  let exited = null;
  child.on('message', (msg) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg);
    else p.reject(new Error(`webhook receivers: ${msg.error}`));
  });
  child.once('exit', (code, signal) => {
    exited = { code, signal };
    for (const p of pending.values()) p.reject(new Error(`webhook receivers exited (${JSON.stringify(exited)})`));
    pending.clear();
  });
  const call = (cmd, extra = {}) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(`webhook receivers exited (${JSON.stringify(exited)})`));
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, cmd, ...extra });
    });
  const { ports } = await call('listen', { count });
  return {
    pid: child.pid,
    ports,
    call,
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      await call('stop').catch(() => child.kill('SIGKILL'));
      await Promise.race([gone, sleep(3000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Sets up the Pro user, its form and webhooks; submits; waits for the deliveries; analyses them. */
async function webhookPhase(h) {
  const app = h.formloom;
  const { webhookResponses: total, webhookConcurrency: concurrency, webhookWaitS } = h.config;
  const errors = [];
  const email = `webhooks-${process.pid}@example.com`;
  await app.cli('user', 'create', '--email', email, '--plan', 'pro');
  const { api_key: apiKey } = await app.cli('key', 'create', '--user', email);
  if (!apiKey) throw new Error('formloom key create printed no api_key');

  const rx = await startReceivers(3);
  try {
    const urls = rx.ports.map((port, i) => `http://127.0.0.1:${port}/hooks/${i}`);
    const { body: form } = await requestJson(app.url, 'POST', `${API}/forms`, { apiKey, body: formBody('webhooks') });
    await requestJson(app.url, 'PUT', `${API}/forms/${form.id}/webhooks`, { apiKey, body: { url: urls[0] } });
    await requestJson(app.url, 'PUT', `${API}/webhooks`, { apiKey, body: { webhooks: urls.slice(1).map((url) => ({ url, enabled: true })) } });
    const { body: published } = await requestJson(app.url, 'POST', `${API}/forms/${form.id}/publish`, { apiKey });
    const { body: secret } = await requestJson(app.url, 'GET', `${API}/webhooks/secret`, { apiKey });
    await rx.call('secret', { secret: secret.secret });
    const questions = published.questions.map((q) => ({ id: q.id, type: q.type, properties: q.properties }));
    const submitPath = `${API}/public/forms/${published.slug}/responses`;
    const expected = total * urls.length;

    h.log(`formloom: ${total} submissions, ${concurrency} at a time, to a form with ${urls.length} webhook URLs`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const cpu = h.cpuWindow([rx.pid]);
    const t0 = monoMs();
    const submits = await mapLimit(total, concurrency, async (i) => {
      const r = await timedRequest(app.url, 'POST', submitPath, { body: { answers: answersFor(questions, i), visitor_id: `webhook-${i}` }, agent });
      let id = null;
      if (r.status === 201) id = JSON.parse(r.text).id;
      else if (errors.length < 5) errors.push(`submission ${i} answered ${r.status}: ${r.text.slice(0, 200)}`);
      return { id, sent: r.sent_ms, created: r.end_ms, ms: r.end_ms - r.start_ms };
    });
    const submittedAt = monoMs();
    agent.destroy();
    const failedSubmits = submits.filter((s) => !s.id).length;
    if (failedSubmits) errors.push(`${failedSubmits} of ${total} submissions did not answer 201`);
    const want = (total - failedSubmits) * urls.length;

    // Wait for every delivery (or the deadline), then a little longer to catch duplicates.
    const deadline = submittedAt + webhookWaitS * 1000;
    let count = 0;
    while ((count = (await rx.call('count')).count) < want && monoMs() < deadline) await sleep(50);
    const allArrivedAt = count >= want ? monoMs() : null;
    const cpuEnd = cpu.end();
    await sleep(500);
    const { records } = await rx.call('records');

    // Exactly once: one arrival per (receiver, response); deliveries of other responses are unexpected.
    const byResponse = new Map(submits.filter((s) => s.id).map((s) => [s.id, s]));
    const firstArrival = new Map(); // `${receiver}|${response}` -> record
    let duplicates = 0;
    let unexpected = 0;
    let badSignatures = 0;
    for (const rec of records) {
      if (!rec.sig) badSignatures++;
      if (!byResponse.has(rec.response)) {
        unexpected++;
        continue;
      }
      const key = `${rec.r}|${rec.response}`;
      if (firstArrival.has(key)) duplicates++;
      else firstArrival.set(key, rec);
    }
    const deliveryIds = new Set(records.map((r) => r.delivery));
    const fromSent = [];
    const fromCreated = [];
    let lastArrival = -Infinity;
    for (const rec of firstArrival.values()) {
      const s = byResponse.get(rec.response);
      fromSent.push(rec.t - s.sent);
      fromCreated.push(rec.t - s.created);
      lastArrival = Math.max(lastArrival, rec.t);
    }
    // p50 latency of the deliveries of each tenth of the submissions (in send order): flat when deliveries keep
    // up, rising when a backlog builds (throughput below the submission rate).
    const tenths = Array.from({ length: 10 }, () => []);
    const order = new Map([...byResponse.keys()].map((id, i) => [id, Math.floor((10 * i) / byResponse.size)]));
    for (const rec of firstArrival.values()) tenths[order.get(rec.response)].push(rec.t - byResponse.get(rec.response).sent);
    const byTenth = tenths.map((xs) => describe(xs, 0).p50);
    // Delivery throughput while the submissions ran, and after (the worker alone).
    const arrivals = [...firstArrival.values()].map((r) => r.t);
    const during = arrivals.filter((t) => t <= submittedAt).length;
    const rateDuring = round(during / ((submittedAt - t0) / 1000), 0);
    const rateAfter = lastArrival > submittedAt ? round((arrivals.length - during) / ((lastArrival - submittedAt) / 1000), 0) : null;
    const perReceiver = urls.map((_, i) => [...firstArrival.values()].filter((r) => r.r === i).length);
    const S = describe(fromSent);
    const C = describe(fromCreated);
    const sub = describe(submits.map((s) => s.ms));
    const submitSeconds = (submittedAt - t0) / 1000;
    const lastAfterSubmits = firstArrival.size ? lastArrival - submittedAt : null;
    let formloomTotal = null;
    try {
      const { body } = await requestJson(app.url, 'GET', `${API}/forms/${form.id}/webhooks/deliveries?per_page=1`, { apiKey });
      formloomTotal = body.total;
    } catch (e) {
      errors.push(`GET /forms/:id/webhooks/deliveries failed: ${e.message}`);
    }
    const lat = (what, d) => ({ what, n: d.n, p50: d.p50?.toFixed(1), p95: d.p95?.toFixed(1), p99: d.p99?.toFixed(1), max: d.max?.toFixed(1) });
    const exactlyOnce = firstArrival.size === expected && duplicates === 0 && unexpected === 0;
    return {
      table: {
        title:
          `Webhook delivery: ${total} submissions (${concurrency} concurrent, ${(total / submitSeconds).toFixed(0)}/s over ` +
          `${submitSeconds.toFixed(1)} s) x ${urls.length} URLs; arrived ${firstArrival.size}/${expected} ` +
          `(per receiver ${perReceiver.join(' / ')}), ${duplicates} duplicates, ${unexpected} unexpected, ` +
          `${badSignatures} bad signatures; last arrival ${lastAfterSubmits === null ? '-' : lastAfterSubmits.toFixed(0)} ms ` +
          `after the last 201; app CPU (% of a core) main thread ${cpuEnd.app_threads_cpu_pct?.main}, other threads ` +
          `${cpuEnd.app_threads_cpu_pct?.other}; other CPU ${cpuEnd.other_cpu_pct} %`,
        columns: [
          { key: 'what', title: 'latency (ms)' },
          { key: 'n', title: 'n', right: true },
          { key: 'p50', title: 'p50', right: true },
          { key: 'p95', title: 'p95', right: true },
          { key: 'p99', title: 'p99', right: true },
          { key: 'max', title: 'max', right: true },
        ],
        rows: [
          lat('submit request sent -> delivery arrived', S),
          lat('201 received -> delivery arrived (info)', C),
          lat('submission (request -> 201)', sub),
          { what: `p50 sent -> arrived by tenth of the submissions: ${byTenth.join(' ')}` },
          { what: `deliveries/s: ${rateDuring} while submitting (${(total / submitSeconds * urls.length).toFixed(0)}/s enqueued), ${rateAfter ?? '-'} after` },
        ],
      },
      checks: [
        {
          check: 'webhooks: every delivery arrives exactly once',
          value: `${firstArrival.size}/${expected}, ${duplicates} dup, ${unexpected} unexpected`,
          target: `${expected}/${expected}, 0 dup`,
          pass: exactlyOnce,
        },
        { check: 'webhooks: signatures valid (HMAC-SHA256)', value: `${records.length - badSignatures}/${records.length}`, target: 'all', pass: badSignatures === 0 && records.length > 0 },
        {
          check: 'webhooks: p99 submit sent -> arrival',
          value: S.p99 === null ? null : `${S.p99.toFixed(0)} ms`,
          target: `< ${TARGETS.p99Ms} ms`,
          pass: S.p99 !== null && S.p99 < TARGETS.p99Ms && firstArrival.size === expected,
        },
      ],
      result: {
        submissions: total,
        concurrency,
        urls: urls.length,
        submit_seconds: round(submitSeconds, 2),
        submit_ms: sub,
        expected,
        arrived: firstArrival.size,
        arrived_per_receiver: perReceiver,
        duplicates,
        unexpected,
        distinct_delivery_ids: deliveryIds.size,
        bad_signatures: badSignatures,
        all_arrived_within_s: allArrivedAt === null ? null : round((allArrivedAt - t0) / 1000, 2),
        last_arrival_after_last_201_ms: lastAfterSubmits === null ? null : round(lastAfterSubmits, 1),
        latency_from_sent_ms: S,
        latency_from_201_ms: C,
        latency_p50_by_tenth_of_submissions_ms: byTenth,
        deliveries_per_s_during_submissions: rateDuring,
        deliveries_per_s_after_submissions: rateAfter,
        deliveries_per_s: firstArrival.size && allArrivedAt ? round(firstArrival.size / ((allArrivedAt - t0) / 1000), 1) : null,
        formloom_deliveries_total: formloomTotal,
        window_us: [Math.round(t0 * 1000), Math.round((allArrivedAt ?? monoMs()) * 1000)],
        ...cpuEnd,
        targets: TARGETS,
      },
      errors,
    };
  } finally {
    await rx.stop();
  }
}

const phases = [{ name: 'webhook delivery', run: webhookPhase }];

module.exports = { family: 'webhooks', phases, startReceivers };
