'use strict';
// Integrations fan-out as a bench family (`BENCH_ONLY=fanout node bench/run.js`; docs/benchmarks.md, "fanout"):
// bench/integrations-fanout.js in a child process (it runs an app of its own, as it kills it with SIGKILL halfway),
// its report turned into the issue 37 budget: 10,000 responses submitted over a minute to a form with 3
// integrations (REST Hooks, Google Chat, Notion on local receivers speaking their APIs), none lost, none stored
// twice; Slack and Discord ride along, their repeats reported apart (their webhooks take no key).
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
  h.log(`fanout: ${r.acknowledged} of ${r.responses} responses acknowledged, ${r.pending_deliveries_at_kill} deliveries pending at the kill (${r.leased_deliveries_at_kill} leased)`);
  const budget = ['rest_hooks', 'google_chat', 'notion'];
  const chats = ['slack', 'discord'];
  const names = { rest_hooks: 'REST Hooks (Zapier, by delivery id)', google_chat: 'Google Chat', notion: 'Notion', slack: 'Slack (informational)', discord: 'Discord (informational)' };
  const rows = [...budget, ...chats].map((name) => ({
    what: names[name],
    requests: r[name].requests,
    lost: r[name].lost,
    twice: r[name].stored_twice,
    recognised: r[name].repeats_recognised,
  }));
  const sum = (keys, field) => keys.reduce((n, k) => n + r[k][field], 0);
  const lost = sum([...budget, ...chats], 'lost');
  const twice = sum(budget, 'stored_twice');
  const drainS = (r.all_delivered_ms - r.submitted_ms) / 1000;
  const checks = [
    { check: `fanout: ${responses} responses at ${rate}/s to 5 integrations, kill -9 halfway: lost`, value: String(lost), target: '0', pass: lost === 0 && r.acknowledged === responses },
    { check: 'fanout: submitted within a minute; last delivery after the last submission', value: `${(r.submitted_ms / 1000).toFixed(1)} s; ${drainS.toFixed(1)} s`, target: '<= 61 s; < 30 s', pass: r.submitted_ms <= 61_000 && drainS < 30 },
    { check: 'fanout: stored twice by REST Hooks, Google Chat, Notion (the budget: exactly once)', value: budget.map((k) => r[k].stored_twice).join('; '), target: '0; 0; 0', pass: twice === 0 },
    // At least once by nature (no key): the window is the deliveries in flight at the kill, 4 per destination.
    // The budget is none duplicated; chat webhooks take no key, so a repeat in the window of the kill shows.
    { check: 'fanout: posted twice to Slack, Discord (their webhooks take no key)', value: chats.map((k) => r[k].stored_twice).join('; '), target: '0; 0', pass: chats.every((k) => r[k].stored_twice === 0) },
  ];
  return {
    table: {
      title: `Integrations fan-out: ${responses} responses at ${rate}/s, kill -9 after ${Math.floor(responses / 2)}; submitted in ${(r.submitted_ms / 1000).toFixed(1)} s, all delivered ${(r.all_delivered_ms / 1000).toFixed(1)} s after the first`,
      columns: [
        { key: 'what', title: 'receiver' },
        { key: 'requests', title: 'requests', right: true },
        { key: 'lost', title: 'lost', right: true },
        { key: 'twice', title: 'stored twice', right: true },
        { key: 'recognised', title: 'repeats recognised', right: true },
      ],
      rows,
    },
    checks,
    result: r,
    errors: r.acknowledged === responses ? [] : [`${responses - r.acknowledged} submissions not acknowledged`],
  };
}

module.exports = { family: 'fanout', phases: [{ name: 'integrations fan-out', run: fanoutPhase }] };
