'use strict';
// Summarising and printing results: medians over rounds, aligned text tables, the baseline comparison.

/** Prints `rows` (objects) under `title` with `columns` [{ key, title, right? }] in aligned text. */
function printTable(title, columns, rows, out = process.stdout) {
  const cells = rows.map((r) => columns.map((c) => (r[c.key] == null ? '-' : String(r[c.key]))));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i].length)));
  const line = (vals) =>
    vals.map((v, i) => (columns[i].right ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  out.write(`\n${title}\n`);
  out.write(`${line(columns.map((c) => c.title))}\n`);
  out.write(`${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of cells) out.write(`${line(row)}\n`);
}

function median(values) {
  const v = values.filter((x) => x != null).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}
const sum = (values) => values.reduce((a, b) => a + (b || 0), 0);
const round = (n, d) => (n == null ? null : Math.round(n * 10 ** d) / 10 ** d);

/** Several runs of one scenario at one connection count, summarised: medians, sums of counts, the runs. */
function aggregate(rounds) {
  return {
    connections: rounds[0].connections,
    rounds: rounds.length,
    rps: round(median(rounds.map((r) => r.rps)), 1),
    rps_range: [Math.min(...rounds.map((r) => r.rps)), Math.max(...rounds.map((r) => r.rps))],
    latency_ms: {
      p50: round(median(rounds.map((r) => r.latency_ms.p50)), 2),
      p99: round(median(rounds.map((r) => r.latency_ms.p99)), 2),
    },
    requests_total: sum(rounds.map((r) => r.requests_total)),
    non2xx: sum(rounds.map((r) => r.non2xx)),
    errors: sum(rounds.map((r) => r.errors)),
    timeouts: sum(rounds.map((r) => r.timeouts)),
    other_cpu_pct: round(median(rounds.map((r) => r.other_cpu_pct)), 1),
    cpu_us_per_req: round(median(rounds.map((r) => r.cpu_us_per_req)), 0),
    runs: rounds,
  };
}

/** runs: app -> scenario -> connections -> [run]. Returns table rows and the aggregated results. */
function summarise(runs) {
  const rows = [];
  const results = {};
  for (const [app, scenarios] of Object.entries(runs)) {
    results[app] = {};
    for (const [scenario, byConns] of Object.entries(scenarios)) {
      results[app][scenario] = {};
      for (const [conns, rounds] of Object.entries(byConns)) {
        const a = (results[app][scenario][conns] = aggregate(rounds));
        rows.push({
          app,
          scenario,
          connections: a.connections,
          rounds: a.rounds,
          rps: a.rps.toFixed(1),
          rps_range: a.rounds > 1 ? `${a.rps_range[0].toFixed(0)}-${a.rps_range[1].toFixed(0)}` : null,
          p50: a.latency_ms.p50?.toFixed(2),
          p99: a.latency_ms.p99?.toFixed(2),
          requests: a.requests_total,
          non2xx: a.non2xx,
          errors: a.errors + a.timeouts,
          other_cpu: a.other_cpu_pct,
          cpu_us: a.cpu_us_per_req,
        });
      }
    }
  }
  // Keep the compared pairs next to each other: by scenario, then connections, then app.
  const order = [...new Set(rows.map((r) => r.scenario))];
  rows.sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario) || a.connections - b.connections || (a.app < b.app ? -1 : 1));
  return { rows, results };
}

const RESULT_COLUMNS = [
  { key: 'app', title: 'app' },
  { key: 'scenario', title: 'scenario' },
  { key: 'connections', title: 'conns', right: true },
  { key: 'rounds', title: 'runs', right: true },
  { key: 'rps', title: 'req/s', right: true },
  { key: 'rps_range', title: 'req/s range', right: true },
  { key: 'p50', title: 'p50 ms', right: true },
  { key: 'p99', title: 'p99 ms', right: true },
  { key: 'requests', title: 'requests', right: true },
  { key: 'non2xx', title: 'non-2xx', right: true },
  { key: 'errors', title: 'errors', right: true },
  { key: 'other_cpu', title: 'other CPU %', right: true },
  { key: 'cpu_us', title: 'app CPU µs/req', right: true },
];

/**
 * Ratios of `subject` to `baseline` (connections -> [run per round], paired by round) at each connection
 * count: the median of the per-round ratios, checked against `targets`: `minRpsRatio` (every count) and
 * `maxP99Ratio` (at the counts listed in `p99AtConnections` only); and the subject's errors (non-2xx,
 * errors, timeouts), which must be 0. `baseline` is whichever reference the subject is compared with.
 */
function compare(subject, baseline, targets) {
  const rows = [];
  for (const [conns, sRuns] of Object.entries(subject)) {
    const bRuns = baseline[conns];
    if (!bRuns) continue;
    const n = Math.min(sRuns.length, bRuns.length);
    const rpsRatios = [];
    const p99Ratios = [];
    for (let i = 0; i < n; i++) {
      rpsRatios.push(sRuns[i].rps / bRuns[i].rps);
      p99Ratios.push(sRuns[i].latency_ms.p99 / bRuns[i].latency_ms.p99);
    }
    const rpsRatio = median(rpsRatios);
    const p99Ratio = median(p99Ratios);
    const rpsOk = rpsRatio >= targets.minRpsRatio;
    const checksP99 = [].concat(targets.p99AtConnections).includes(Number(conns));
    const p99Ok = !checksP99 || p99Ratio <= targets.maxP99Ratio;
    const errors = sum(sRuns.map((r) => r.non2xx + r.errors + r.timeouts));
    rows.push({
      connections: Number(conns),
      rps_ratio: round(rpsRatio, 3),
      rps_rounds: rpsRatios.map((r) => r.toFixed(2)).join(' '),
      rps_target: `>= ${targets.minRpsRatio}`,
      rps_verdict: rpsOk ? 'PASS' : 'FAIL',
      p99_ratio: round(p99Ratio, 3),
      p99_rounds: p99Ratios.map((r) => r.toFixed(2)).join(' '),
      p99_target: checksP99 ? `<= ${targets.maxP99Ratio}` : '(info)',
      p99_verdict: checksP99 ? (p99Ok ? 'PASS' : 'FAIL') : '-',
      errors,
      errors_verdict: errors === 0 ? 'PASS' : 'FAIL',
      checks_p99: checksP99,
      pass: rpsOk && p99Ok && errors === 0,
    });
  }
  return rows;
}

const COMPARE_COLUMNS = [
  { key: 'connections', title: 'conns', right: true },
  { key: 'rps_ratio', title: 'req/s ratio', right: true },
  { key: 'rps_rounds', title: '(per round)' },
  { key: 'rps_target', title: 'target' },
  { key: 'rps_verdict', title: '' },
  { key: 'p99_ratio', title: 'p99 ratio', right: true },
  { key: 'p99_rounds', title: '(per round)' },
  { key: 'p99_target', title: 'target' },
  { key: 'p99_verdict', title: '' },
  { key: 'errors', title: 'errors', right: true },
  { key: 'errors_verdict', title: '' },
];

/**
 * The rows of `compare` as entries of the run's list of targets; `against` names the reference. The errors
 * are Formloom's own: a scenario compared with two references lists them with the first (`withErrors`).
 */
function comparisonChecks(family, scenario, rows, targets, against = 'baseline', withErrors = true) {
  const out = [];
  for (const r of rows) {
    out.push({ family, check: `${scenario} @${r.connections}: req/s vs ${against}`, value: `${r.rps_ratio}x`, target: `>= ${targets.minRpsRatio}x`, pass: r.rps_verdict === 'PASS' });
    if (r.checks_p99) {
      out.push({ family, check: `${scenario} @${r.connections}: p99 vs ${against}`, value: `${r.p99_ratio}x`, target: `<= ${targets.maxP99Ratio}x`, pass: r.p99_verdict === 'PASS' });
    }
    if (withErrors) out.push({ family, check: `${scenario} @${r.connections}: errors + non-2xx`, value: String(r.errors), target: '= 0', pass: r.errors === 0 });
  }
  return out;
}

const CHECK_COLUMNS = [
  { key: 'family', title: 'family' },
  { key: 'check', title: 'check' },
  { key: 'value', title: 'value', right: true },
  { key: 'target', title: 'target' },
  { key: 'verdict', title: '' },
];

/** The "other CPU %" figures of a phase's result: its own, and those of its runs. */
function phaseOtherCpu(name, result) {
  const out = [];
  if (result && result.other_cpu_pct != null) out.push({ what: name, pct: result.other_cpu_pct });
  if (result && result.query_alone_other_cpu_pct != null) out.push({ what: `${name} query alone`, pct: result.query_alone_other_cpu_pct });
  for (const [key, part] of Object.entries(result || {})) {
    if (part && Array.isArray(part.runs)) {
      part.runs.forEach((r, i) => r.other_cpu_pct != null && out.push({ what: `${name} ${key} run ${i + 1}`, pct: r.other_cpu_pct }));
    }
  }
  return out;
}

module.exports = {
  printTable,
  summarise,
  compare,
  comparisonChecks,
  phaseOtherCpu,
  median,
  RESULT_COLUMNS,
  COMPARE_COLUMNS,
  CHECK_COLUMNS,
};
