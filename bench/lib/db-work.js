'use strict';
// A measuring window over the database work of the scale-out family: what crossed the wire (lib/pg-wire.js),
// what PostgreSQL charged per statement (lib/pg-stats.js, pg_stat_statements), the CPU of its backends and of
// the app processes; then the same per request, less the background the instances make while idle (the
// outbox's poll, housekeeping) over the window's length.
const { processCpuMs } = require('./cpu');
const { diffCounts } = require('./pg-wire');
const { diffStatements, diffBackendCpu } = require('./pg-stats');
const { readShare } = require('./capacity-model');
const { monoMs } = require('./stats');

const sumCpu = (pids) => pids.reduce((s, pid) => s + (processCpuMs(pid) ?? 0), 0);

/** Starts a window; `end()` resolves with the totals over it. `wire` may be null (instances not relayed). */
async function startWorkWindow({ wire, probe, pids }) {
  const t0 = monoMs();
  const w0 = wire ? wire.counts() : null;
  const s0 = await probe.snapshot();
  const c0 = await probe.backendCpu();
  const a0 = sumCpu(pids);
  return {
    async end() {
      const a1 = sumCpu(pids);
      const c1 = await probe.backendCpu();
      const s1 = await probe.snapshot();
      return {
        seconds: (monoMs() - t0) / 1000,
        wire: wire ? diffCounts(wire.counts(), w0) : null,
        statements: diffStatements(s1, s0),
        db_cpu_ms: diffBackendCpu(c1, c0),
        app_cpu_ms: a1 - a0,
      };
    },
  };
}

/** The flat figures of a window's totals (null where a source was missing). */
function flatten(t) {
  return {
    statements: t.wire ? t.wire.statements : null,
    round_trips: t.wire ? t.wire.round_trips : null,
    rows_returned: t.wire ? t.wire.rows : null,
    bytes: t.wire ? t.wire.bytes_sent + t.wire.bytes_received : null,
    pss_calls: t.statements ? t.statements.calls : null,
    pss_rows: t.statements ? t.statements.rows : null,
    exec_ms: t.statements ? t.statements.exec_ms + t.statements.plan_ms : null,
    plan_ms: t.statements ? t.statements.plan_ms : null,
    wal_bytes: t.statements ? t.statements.wal_bytes : null,
    db_cpu_ms: t.db_cpu_ms,
    app_cpu_ms: t.app_cpu_ms,
  };
}

/** Background per second: a window's figures over its length (the instances idle throughout). */
function perSecond(totals) {
  const f = flatten(totals);
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v == null ? null : v / totals.seconds]));
}

const r = (n, d = 2) => (n == null || !Number.isFinite(n) ? null : Math.round(n * 10 ** d) / 10 ** d);

/**
 * Per request (or per unit: `count` of them) of a window's totals, less `background` (per second) over its
 * length: counts, µs of statement time (execution + planning), of backend and app CPU, bytes of WAL.
 */
function perRequest(totals, count, background = null) {
  const f = flatten(totals);
  const less = (k) => (f[k] == null ? null : Math.max(0, f[k] - (background?.[k] ?? 0) * totals.seconds));
  const per = (k, scale = 1) => (f[k] == null || !count ? null : (less(k) * scale) / count);
  return {
    count,
    statements: r(per('statements')),
    round_trips: r(per('round_trips')),
    rows_returned: r(per('rows_returned'), 1),
    bytes: r(per('bytes'), 0),
    pss_calls: r(per('pss_calls')),
    pss_rows: r(per('pss_rows'), 1),
    db_exec_us: r(per('exec_ms', 1000), 0),
    db_plan_us: r(per('plan_ms', 1000), 0),
    wal_bytes: r(per('wal_bytes'), 0),
    db_cpu_us: r(per('db_cpu_ms', 1000), 0),
    app_cpu_us: r(per('app_cpu_ms', 1000), 0),
    read_share: r(readShare(totals.statements?.statements), 2),
    top: (totals.statements?.statements ?? []).slice(0, 5).map((s) => ({ calls_per_request: r(s.calls / count, 2), exec_ms: r(s.exec_ms, 1), query: s.query.slice(0, 120) })),
  };
}

/** `a - b` per unit, for the work one thing adds over another (e.g. a webhook's delivery over a plain submission). */
function difference(a, b) {
  const out = {};
  for (const [k, v] of Object.entries(a)) {
    if (k === 'top' || k === 'count' || k === 'read_share') continue;
    out[k] = v == null || b[k] == null ? null : r(v - b[k], 2);
  }
  return { ...out, count: a.count, read_share: null, top: a.top };
}

module.exports = { startWorkWindow, perRequest, perSecond, difference };
