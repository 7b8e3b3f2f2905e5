'use strict';
// The server's side of the scale-out family's "database work per request", read from PostgreSQL itself:
//   - pg_stat_statements (calls, rows, execution and planning time, WAL bytes per statement), diffed between
//     two snapshots, when the server preloads it (`shared_preload_libraries = 'pg_stat_statements'`; most CI
//     servers do not: `statementsAvailable` says why not, and the family reports those columns as absent);
//   - the CPU time of the backend processes serving one database (Linux /proc, when PostgreSQL runs on this
//     machine), which adds what execution time leaves out: parsing, the protocol, commits.
// Each run gets a database of its own, so both read exactly the work of the instances under measure.
const { Client } = require('pg');
const { processCpuMs } = require('./cpu');

// Marks this module's own queries, which run in the measured database and are left out of every diff.
const PROBE = '/* scale-out probe */';

/** `url` with its database replaced by `db`. */
function withDatabase(url, db) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function once(url, sql) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Creates database `name` next to `url`'s; resolves with its URL and `drop()`. */
async function createDatabase(url, name) {
  await once(url, `CREATE DATABASE ${name}`);
  return { url: withDatabase(url, name), drop: () => once(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A connection to the measured database `url` that reads its statistics. `open` resolves with
 * { statements: boolean, reason, snapshot(), backendCpu(), close() }.
 */
async function openProbe(url) {
  const db = new URL(url).pathname.slice(1);
  const c = new Client({ connectionString: url });
  await c.connect();
  let statements = false;
  let reason = null;
  try {
    await c.query(`${PROBE} CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    await c.query(`${PROBE} SELECT 1 FROM pg_stat_statements LIMIT 1`);
    // Planning time too, for this database only (a superuser's setting; left off when refused).
    await c.query(`${PROBE} ALTER DATABASE ${db} SET pg_stat_statements.track_planning = on`).catch(() => undefined);
    statements = true;
  } catch (e) {
    reason = e.message; // e.g. 'pg_stat_statements must be loaded via "shared_preload_libraries"'
  }
  return {
    statements,
    reason,
    /** queryid -> { calls, rows, exec_ms, plan_ms, wal_bytes, query } of this database, or null without the extension. */
    async snapshot() {
      if (!statements) return null;
      const { rows } = await c.query(
        `${PROBE} SELECT queryid::text AS id, calls::float8 AS calls, rows::float8 AS rows, total_exec_time AS exec_ms,
           total_plan_time AS plan_ms, wal_bytes::float8 AS wal_bytes, query
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND query NOT LIKE '%scale-out probe%'`,
      );
      return new Map(rows.map((r) => [`${r.id}`, r]));
    },
    /** pid -> CPU ms of every backend connected to this database but this one (null when /proc cannot tell). */
    async backendCpu() {
      const { rows } = await c.query(`${PROBE} SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
      const out = new Map();
      for (const { pid } of rows) {
        const ms = processCpuMs(pid);
        if (ms === null) return null; // PostgreSQL on another machine, or /proc not readable
        out.set(pid, ms);
      }
      return out;
    },
    /** A server setting (SHOW), e.g. 'max_connections'. */
    setting: async (name) => (await c.query(`${PROBE} SHOW ${name}`)).rows[0][name],
    close: () => c.end(),
  };
}

/** What happened between two snapshots: totals, and the statements by total execution time. */
function diffStatements(after, before) {
  if (!after || !before) return null;
  const totals = { calls: 0, rows: 0, exec_ms: 0, plan_ms: 0, wal_bytes: 0 };
  const statements = [];
  for (const [id, a] of after) {
    const b = before.get(id) ?? { calls: 0, rows: 0, exec_ms: 0, plan_ms: 0, wal_bytes: 0 };
    const d = { calls: a.calls - b.calls, rows: a.rows - b.rows, exec_ms: a.exec_ms - b.exec_ms, plan_ms: a.plan_ms - b.plan_ms, wal_bytes: a.wal_bytes - b.wal_bytes };
    if (d.calls <= 0) continue;
    for (const k of Object.keys(totals)) totals[k] += d[k];
    statements.push({ ...d, query: a.query.replace(/\s+/g, ' ') });
  }
  statements.sort((x, y) => y.exec_ms - x.exec_ms);
  return { ...totals, statements };
}

/** CPU ms the backends used between two `backendCpu()` reads (a backend that started meanwhile counts whole). */
function diffBackendCpu(after, before) {
  if (!after || !before) return null;
  let ms = 0;
  for (const [pid, cpu] of after) ms += cpu - (before.get(pid) ?? 0);
  return ms;
}

module.exports = { createDatabase, openProbe, diffStatements, diffBackendCpu, withDatabase };
