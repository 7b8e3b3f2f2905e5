'use strict';
// Printing results: a plain aligned text table, and the baseline comparison with its targets.

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

const RESULT_COLUMNS = [
  { key: 'app', title: 'app' },
  { key: 'scenario', title: 'scenario' },
  { key: 'connections', title: 'conns', right: true },
  { key: 'rps', title: 'req/s', right: true },
  { key: 'p50', title: 'p50 ms', right: true },
  { key: 'p99', title: 'p99 ms', right: true },
  { key: 'requests', title: 'requests', right: true },
  { key: 'non2xx', title: 'non-2xx', right: true },
  { key: 'errors', title: 'errors', right: true },
  { key: 'other_cpu', title: 'other CPU %', right: true },
];

/** One table row of a load result. */
function resultRow(app, scenario, r) {
  return {
    app,
    scenario,
    connections: r.connections,
    rps: r.rps.toFixed(1),
    p50: r.latency_ms.p50 == null ? null : r.latency_ms.p50.toFixed(2),
    p99: r.latency_ms.p99 == null ? null : r.latency_ms.p99.toFixed(2),
    requests: r.requests_total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    other_cpu: r.other_cpu_pct,
  };
}

/**
 * Ratios of `subject` to `baseline` at each connection count, checked against `targets`:
 * `minRpsRatio` (every count) and `maxP99Ratio` (at `p99AtConnections` only).
 */
function compare(subject, baseline, targets) {
  const rows = [];
  for (const [conns, s] of Object.entries(subject)) {
    const b = baseline[conns];
    if (!b) continue;
    const rpsRatio = s.rps / b.rps;
    const p99Ratio = s.latency_ms.p99 / b.latency_ms.p99;
    const rpsOk = rpsRatio >= targets.minRpsRatio;
    const checksP99 = Number(conns) === targets.p99AtConnections;
    const p99Ok = !checksP99 || p99Ratio <= targets.maxP99Ratio;
    rows.push({
      connections: Number(conns),
      rps_ratio: round3(rpsRatio),
      rps_target: `>= ${targets.minRpsRatio}`,
      rps_verdict: rpsOk ? 'PASS' : 'FAIL',
      p99_ratio: round3(p99Ratio),
      p99_target: checksP99 ? `<= ${targets.maxP99Ratio}` : '(info)',
      p99_verdict: checksP99 ? (p99Ok ? 'PASS' : 'FAIL') : '-',
      pass: rpsOk && p99Ok,
    });
  }
  return rows;
}

const round3 = (n) => Math.round(n * 1000) / 1000;

const COMPARE_COLUMNS = [
  { key: 'connections', title: 'conns', right: true },
  { key: 'rps_ratio', title: 'req/s ratio', right: true },
  { key: 'rps_target', title: 'target' },
  { key: 'rps_verdict', title: '' },
  { key: 'p99_ratio', title: 'p99 ratio', right: true },
  { key: 'p99_target', title: 'target' },
  { key: 'p99_verdict', title: '' },
];

module.exports = { printTable, resultRow, compare, RESULT_COLUMNS, COMPARE_COLUMNS };
