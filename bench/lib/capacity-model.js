'use strict';
// The scale-out family's capacity model (docs/scaling.md, "Capacity model"): from what one request of a route
// costs the app (CPU µs) and PostgreSQL (statement time µs, from pg_stat_statements; backend CPU µs where
// /proc shows it), the requests a second one core of each serves, how many app cores one PostgreSQL core
// feeds before it saturates, the connections N instances hold, and which share of the database time a read
// replica could take. Pure functions of the measured figures, so the model is tested apart from a run.

/** Connections one instance holds: its pool (storage-typeorm's default, 10) and the outbox's LISTEN connection. */
const CONNECTIONS_PER_INSTANCE = 11;

/** Requests a second one core serves when each request costs `us` µs of it (null when unknown). */
const perCore = (us) => (us > 0 ? 1e6 / us : null);

/**
 * A statement that only reads (a replica could run it): SELECT or WITH ... SELECT, not locking rows, not
 * calling a function that writes (nextval, advisory locks), not a transaction's BEGIN/COMMIT; or a COPY (such a
 * query) TO STDOUT.
 */
function isRead(query) {
  const q = query.replace(/\/\*.*?\*\//g, ' ').trim().toUpperCase();
  if (/^COPY\s*\(/.test(q)) {
    // The query in COPY's parentheses, up to the one that closes the first.
    const open = q.indexOf('(');
    let depth = 0;
    let close = -1;
    for (let i = open; i < q.length && close < 0; i++) {
      if (q[i] === '(') depth++;
      else if (q[i] === ')' && --depth === 0) close = i;
    }
    return close > 0 && /^\s*TO\s+STDOUT\b/.test(q.slice(close + 1)) && isRead(q.slice(open + 1, close));
  }
  if (!/^(SELECT|WITH)\b/.test(q)) return false;
  return !/\b(INSERT|UPDATE|DELETE|FOR UPDATE|FOR SHARE|FOR NO KEY UPDATE|NEXTVAL|PG_ADVISORY\w*|PG_NOTIFY)\b/.test(q);
}

/** Share (0..1) of `statements`' execution time spent in reads, or null without statements or time. */
function readShare(statements) {
  if (!statements || !statements.length) return null;
  const total = statements.reduce((s, x) => s + x.exec_ms, 0);
  if (!(total > 0)) return null;
  return statements.filter((x) => isRead(x.query)).reduce((s, x) => s + x.exec_ms, 0) / total;
}

/**
 * One route's line of the model. `m`: { app_cpu_us, db_exec_us (execution + planning per request), db_cpu_us
 * (backend CPU per request, or null), read_share }.
 */
function routeModel(m) {
  const app = perCore(m.app_cpu_us);
  const dbExec = perCore(m.db_exec_us);
  const dbCpu = perCore(m.db_cpu_us);
  return {
    app_rps_per_core: app,
    db_rps_per_core_exec: dbExec,
    db_rps_per_core_cpu: dbCpu,
    // App cores one PostgreSQL core keeps busy before it saturates, counted both ways: by statement time (what
    // pg_stat_statements charges) and by backend CPU (adds parsing, protocol and commit work).
    app_cores_per_db_core_exec: app && dbExec ? dbExec / app : null,
    app_cores_per_db_core_cpu: app && dbCpu ? dbCpu / app : null,
    // With every read on a replica, the primary keeps the rest: its capacity for this route grows by 1/(1-share).
    primary_gain_with_replica: m.read_share == null ? null : m.read_share >= 1 ? Infinity : 1 / (1 - m.read_share),
  };
}

/**
 * Instances one PostgreSQL holds by connections alone: (max_connections - reserved - `spare` for operators
 * and the CLI) / the connections of one instance.
 */
function instancesByConnections(maxConnections, reserved = 3, spare = 5) {
  return Math.max(0, Math.floor((maxConnections - reserved - spare) / CONNECTIONS_PER_INSTANCE));
}

/** Scaling efficiency of N instances: req/s of N over N times req/s of one (1 = linear). */
const efficiency = (rpsN, rps1, n) => (rpsN > 0 && rps1 > 0 ? rpsN / (n * rps1) : null);

module.exports = { CONNECTIONS_PER_INSTANCE, perCore, isRead, readShare, routeModel, instancesByConnections, efficiency };
