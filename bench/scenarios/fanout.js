'use strict';
// Integrations fan-out as a bench family (`BENCH_ONLY=fanout node bench/run.js`; docs/benchmarks.md, "fanout"):
// bench/integrations-fanout.js in a child process (it runs an app of its own, as it kills it with SIGKILL halfway),
// its report turned into the issue 37 budget: 10,000 responses submitted over a minute to a form with 3
// integrations (Slack, Discord, REST Hooks on local receivers), none lost, none delivered twice.
const { spawn } = require('node:child_process');
const path = require('node:path');

const SCRIPT = path.join(__dirname, '../integrations-fanout.js');

function runScript(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-20_000)));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`integrations-fanout.js exited ${code}: ${err.slice(-2000)}`))));
  });
}

async function fanoutPhase(h) {
  const responses = Number(process.env.BENCH_FANOUT_RESPONSES || 10_000);
  const rate = Number(process.env.BENCH_FANOUT_RATE || 167);
  const r = await runScript({ BENCH_FANOUT_RESPONSES: String(responses), BENCH_FANOUT_RATE: String(rate) });
  h.log(`fanout: ${r.acknowledged} of ${r.responses} responses acknowledged, ${r.pending_deliveries_at_kill} deliveries pending at the kill`);
  const receivers = ['slack', 'discord', 'zapier'];
  const rows = receivers.map((name) => ({
    what: name === 'zapier' ? 'REST Hooks (Zapier)' : name,
    messages: r[name].messages,
    lost: r[name].lost,
    twice: r[name].delivered_twice,
    dedupe: r[name].twice_after_dedupe_by_delivery_id ?? '(no id)',
  }));
  const lost = receivers.reduce((n, k) => n + r[k].lost, 0);
  const twice = receivers.reduce((n, k) => n + r[k].delivered_twice, 0);
  const drainS = (r.all_delivered_ms - r.submitted_ms) / 1000;
  const checks = [
    { check: `fanout: ${responses} responses at ${rate}/s to 3 integrations, kill -9 halfway: lost`, value: String(lost), target: '0', pass: lost === 0 && r.acknowledged === responses },
    { check: 'fanout: submitted within a minute; last delivery after the last submission', value: `${(r.submitted_ms / 1000).toFixed(1)} s; ${drainS.toFixed(1)} s`, target: '<= 61 s; < 30 s', pass: r.submitted_ms <= 61_000 && drainS < 30 },
    { check: 'fanout: delivered twice (chat services; REST Hooks after de-duplicating by X-Formloom-Delivery)', value: `${twice - r.zapier.delivered_twice}; ${r.zapier.twice_after_dedupe_by_delivery_id}`, target: '0; 0', pass: twice - r.zapier.delivered_twice === 0 && r.zapier.twice_after_dedupe_by_delivery_id === 0 },
  ];
  return {
    table: {
      title: `Integrations fan-out: ${responses} responses at ${rate}/s, kill -9 after ${Math.floor(responses / 2)}; submitted in ${(r.submitted_ms / 1000).toFixed(1)} s, all delivered ${(r.all_delivered_ms / 1000).toFixed(1)} s after the first`,
      columns: [
        { key: 'what', title: 'receiver' },
        { key: 'messages', title: 'messages', right: true },
        { key: 'lost', title: 'lost', right: true },
        { key: 'twice', title: 'twice', right: true },
        { key: 'dedupe', title: 'twice by delivery id', right: true },
      ],
      rows,
    },
    checks,
    result: r,
    errors: r.acknowledged === responses ? [] : [`${responses - r.acknowledged} submissions not acknowledged`],
  };
}

module.exports = { family: 'fanout', phases: [{ name: 'integrations fan-out', run: fanoutPhase }] };
