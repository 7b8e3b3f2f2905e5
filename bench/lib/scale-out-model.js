'use strict';
// The scale-out family's "capacity model" phase: lib/capacity-model.js over the figures of the two phases
// before it (per request at 10 connections on one instance; the app's CPU per request as N grows), printed
// as one table and kept in the JSON report. docs/scaling.md explains each column.
const { routeModel, instancesByConnections, CONNECTIONS_PER_INSTANCE } = require('./capacity-model');

const f0 = (n) => (n == null ? null : n === Infinity ? 'all' : Math.round(n).toLocaleString('en-US'));
const f1 = (n) => (n == null ? null : n === Infinity ? 'all' : n.toFixed(1));

/** The per-request figures of `route` at its largest measured connection count. */
function busiest(routes, route) {
  const byConns = routes[route];
  const conns = Object.keys(byConns).map(Number).sort((a, b) => b - a)[0];
  return { conns, ...byConns[conns] };
}

async function modelPhase(h, state) {
  const routes = state.work?.routes ?? {};
  const maxConnections = Number(await state.probe.setting('max_connections'));
  const byConnections = instancesByConnections(maxConnections);
  const lines = [];
  for (const route of Object.keys(routes)) {
    const m = busiest(routes, route);
    const model = routeModel({ app_cpu_us: m.app_cpu_us, db_exec_us: m.db_exec_us, db_cpu_us: m.db_cpu_us, read_share: m.read_share });
    lines.push({ route, conns: m.conns, measured: m, ...model });
  }
  // How the app's CPU per request changed from 1 to N instances (fixed per-instance work spread thinner or not).
  const growth = (state.runs ?? []).map((r) => ({ route: r.route, instances: r.instances, app_cpu_us: r.per_request.app_cpu_us, db_exec_us: r.per_request.db_exec_us, db_cpu_us: r.per_request.db_cpu_us, statements: r.per_request.pss_calls }));
  const rows = lines.map((l) => ({
    route: l.route,
    conns: l.conns,
    app: f0(l.app_rps_per_core),
    db_exec: f0(l.db_rps_per_core_exec),
    db_cpu: f0(l.db_rps_per_core_cpu),
    feeds: `${f1(l.app_cores_per_db_core_exec) ?? '-'} / ${f1(l.app_cores_per_db_core_cpu) ?? '-'}`,
    replica: l.primary_gain_with_replica == null ? null : `${(100 * l.measured.read_share).toFixed(0)}% -> x${f1(l.primary_gain_with_replica)}`,
  }));
  return {
    table: {
      title:
        `Capacity model (per core; app = Formloom's CPU per request, PG = pg_stat_statements' statement time / the ` +
        `backends' CPU per request; times from a busy machine). Connections: ${CONNECTIONS_PER_INSTANCE} per instance ` +
        `(pool of 10 + the outbox's LISTEN), max_connections ${maxConnections}: at most ${byConnections} instances ` +
        `without a pooler`,
      columns: [
        { key: 'route', title: 'route' },
        { key: 'conns', title: 'at conns', right: true },
        { key: 'app', title: 'app req/s per core', right: true },
        { key: 'db_exec', title: 'PG req/s per core (stmt time)', right: true },
        { key: 'db_cpu', title: 'PG req/s per core (backend CPU)', right: true },
        { key: 'feeds', title: 'app cores per PG core (stmt / CPU)', right: true },
        { key: 'replica', title: 'read share -> primary gain with a replica', right: true },
      ],
      rows,
    },
    checks: [],
    result: { max_connections: maxConnections, instances_by_connections: byConnections, connections_per_instance: CONNECTIONS_PER_INSTANCE, routes: lines, growth },
    errors: [],
  };
}

module.exports = { modelPhase };
