'use strict';
// Summarises a V8 CPU profile (`node --cpu-prof`) of an app under bench: where the main thread's time went
// by layer (package) and by function, optionally restricted to one measured run.
//
//   node bench/profile-summary.js <file.cpuprofile> [--report <bench json> --scenario 'GET /forms/:id'
//        --connections 10 [--round 1] [--app formloom]] [--from <µs> --to <µs>] [--top 25]
//   node bench/profile-summary.js <file.cpuprofile> --report <bench json> --phase 'CSV export' [--round 1]
//
// With --report, the window is that run's `window_us` (same monotonic clock as the profile's timestamps);
// with --phase, the window of a family's own measurement (for the CSV export, of its run --round).
const fs = require('node:fs');

function parseArgs(argv) {
  const out = { file: null, top: 25 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) out[a.slice(2)] = argv[++i];
    else out.file = a;
  }
  return out;
}

/** The layer a frame belongs to: a package, a Formloom workspace, a part of Node, or a V8 pseudo-frame. */
function layerOf({ url, functionName }) {
  if (!url) return /^\(.*\)$/.test(functionName) ? functionName : 'v8 builtins (JSON, RegExp, ...)';
  if (url.startsWith('node:')) {
    if (/_http|http_parser|node:http/.test(url)) return 'node:http';
    if (/net|stream|tcp|buffer/.test(url)) return 'node:net/streams';
    if (/crypto/.test(url)) return 'node:crypto';
    if (/timers|async_hooks|task_queues|promise/.test(url)) return 'node:timers/promises';
    return 'node:other';
  }
  const ws = /\/(packages|examples)\/([^/]+)\/dist\//.exec(url);
  if (ws) return ws[1] === 'packages' ? `@formloom/${ws[2]}` : `examples/${ws[2]}`;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/bench/')) return 'bench';
  return 'other';
}

const short = (url) => url.replace(/^.*\/(node_modules|packages|examples)\//, '$1/').replace(/^file:\/\//, '');
const frameName = (cf) => `${cf.functionName || '(anonymous)'} ${cf.url ? `${short(cf.url)}:${cf.lineNumber + 1}` : ''}`.trim();

function summarise(profile, from = -Infinity, to = Infinity) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const self = new Map(); // frame -> µs
  const selfLayer = new Map();
  const inclusive = new Map(); // frame -> µs (each frame once per sample)
  const inclusiveLayer = new Map();
  const projectOwner = new Map(); // nearest @formloom frame on the stack -> µs
  let t = profile.startTime;
  let total = 0;
  const add = (m, k, v) => m.set(k, (m.get(k) || 0) + v);
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    // A sample stands for the time until the next one.
    const dt = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    const leaf = byId.get(profile.samples[i]);
    total += dt;
    add(self, frameName(leaf.callFrame), dt);
    add(selfLayer, layerOf(leaf.callFrame), dt);
    const seen = new Set();
    const seenLayer = new Set();
    let owner = null;
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const cf = byId.get(id).callFrame;
      const name = frameName(cf);
      if (!seen.has(name)) (seen.add(name), add(inclusive, name, dt));
      const layer = layerOf(cf);
      if (!seenLayer.has(layer)) (seenLayer.add(layer), add(inclusiveLayer, layer, dt));
      if (!owner && layer.startsWith('@formloom/')) owner = name;
    }
    if (owner) add(projectOwner, owner, dt);
  }
  return { total, self, selfLayer, inclusive, inclusiveLayer, projectOwner };
}

function print(title, map, total, top, busy, requests) {
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of rows) {
    const pct = ((100 * v) / total).toFixed(1).padStart(5);
    const pctBusy = `${((100 * v) / busy).toFixed(1).padStart(5)}% of busy`;
    const perReq = requests ? `${(v / requests).toFixed(1).padStart(7)} µs/req` : '';
    process.stdout.write(`${(v / 1000).toFixed(0).padStart(8)} ms ${pct}%  ${pctBusy}${perReq}  ${k}\n`);
  }
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.file) throw new Error('usage: node bench/profile-summary.js <file.cpuprofile> [--report r.json --scenario S --connections N]');
  const profile = JSON.parse(fs.readFileSync(args.file, 'utf8'));
  let from = args.from ? Number(args.from) : -Infinity;
  let to = args.to ? Number(args.to) : Infinity;
  let requests = null;
  if (args.report) {
    const report = JSON.parse(fs.readFileSync(args.report, 'utf8'));
    if (args.phase) {
      // A family's own measurement: the CSV export has one window per run, the others one in all.
      const ph = report.phases[args.phase];
      if (!ph) throw new Error(`the report has no phase ${args.phase} (it has: ${Object.keys(report.phases).join(', ')})`);
      [from, to] = (ph.export ? ph.export.runs[Number(args.round || 1) - 1] : ph).window_us;
      requests = ph.submissions ?? null; // webhook delivery: per submission (3 deliveries each)
    } else {
      const app = args.app || 'formloom';
      const agg = report.results[app][args.scenario || 'GET /forms/:id'][args.connections || '10'];
      const run = agg.runs[Number(args.round || 1) - 1]; // --round N: which round of the compared scenario
      [from, to] = run.window_us;
      requests = run.requests_total;
    }
  }
  const s = summarise(profile, from, to);
  const idle = s.selfLayer.get('(idle)') || 0;
  const busy = s.total - idle;
  process.stdout.write(`window ${(s.total / 1e6).toFixed(2)} s, main thread busy ${(busy / 1e6).toFixed(2)} s (${((100 * busy) / s.total).toFixed(1)}%)`);
  if (requests) process.stdout.write(`, ${requests} requests => ${(busy / requests).toFixed(0)} µs of main-thread CPU per request`);
  process.stdout.write('\n');
  const top = Number(args.top);
  const sections = [
    ['Self time by layer', s.selfLayer],
    ['Inclusive time by layer (time with the layer anywhere on the stack)', s.inclusiveLayer],
    ['Self time by function', s.self],
    ['Inclusive time by function', s.inclusive],
    ['Time by nearest Formloom frame on the stack', s.projectOwner],
  ];
  for (const [title, map] of sections) if (map.size) print(title, map, s.total, top, busy, requests);
}

process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0); // output piped into head & co.
  throw e;
});
main();
