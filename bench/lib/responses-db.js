'use strict';
// The database side of the stored-responses family (docs/benchmarks.md, "stored-responses") on either
// database: responses seeded straight into Formloom's PostgreSQL schema (BENCH_DATABASE=postgres) as the
// family seeds the SQLite file (the same rows, the form's response_count and the analytics rollup, in one
// transaction); the database's own CLI writing the CSV export's rows, the export's reference (`sqlite3 -csv`
// on the SQLite file, or `psql` running `\copy (...) TO STDOUT WITH CSV HEADER` in Formloom's schema); and
// a connection of the bench's own for timing a statement alone.
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const { Client } = require('pg');
const sqlite3 = require('sqlite3');
const { fillRollup } = require('./rollup');
const { round, monoMs } = require('./stats');

// ---- PostgreSQL seeding ----
/** A client of its own on `pg` ({ url, schema }), in the schema as Formloom's connections are. */
async function connectPg(pg) {
  const client = new Client({ connectionString: pg.url, options: `-c search_path=${pg.schema}` });
  await client.connect();
  return client;
}

/** `?` placeholders as PostgreSQL's `$n` (the rollup's statements are written for both databases). */
const numbered = (sql) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

const COLUMNS =
  'id, form_id, visitor_id, version_id, version, answers, metadata, quiz_results, started_at, submitted_at, ' +
  'completed_at, completion_seconds, resume_token_hash, unique_visitor, csv_layout, csv_line';
/** Rows per INSERT: 14 parameters each, far under PostgreSQL's 65,535 per statement. */
const ROWS_PER_INSERT = 500;

function insertOf(rows) {
  const tuples = [];
  for (let r = 0; r < rows; r++) {
    const b = r * 14;
    const $ = (k) => `$${b + k}`;
    tuples.push(`(${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, NULL, ${$(8)}, ${$(9)}, ${$(10)}, ${$(11)}, ${$(12)}, NULL, ${$(13)}, ${$(14)})`);
  }
  return `INSERT INTO responses (${COLUMNS}) VALUES ${tuples.join(', ')}`;
}

/**
 * Writes `count` responses of `form` (rows from `rowOf(i)`, the SQLite seeding's `responseRow`) in one
 * transaction with their count on the form and the rollup, then VACUUM ANALYZE: data written long ago has
 * been vacuumed (index-only scans need the visibility map) and analyzed by autovacuum, as the SQLite
 * seeding checkpoints its WAL.
 */
async function seedResponsesPg(pg, form, count, rowOf) {
  const client = await connectPg(pg);
  try {
    await client.query('BEGIN');
    try {
      const full = insertOf(ROWS_PER_INSERT);
      for (let start = 0; start < count; start += ROWS_PER_INSERT) {
        const end = Math.min(count, start + ROWS_PER_INSERT);
        const params = [];
        for (let i = start; i < end; i++) params.push(...rowOf(i));
        await client.query(end - start === ROWS_PER_INSERT ? full : insertOf(end - start), params);
      }
      await client.query('UPDATE forms SET response_count = response_count + $1 WHERE id = $2', [count, form.id]);
      await fillRollup((method, sql, params) => client.query(numbered(sql), params), form, count, rowOf);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    await client.query('VACUUM (ANALYZE) responses, response_days, question_days, question_values, forms');
    const { rows } = await client.query('SELECT count(*)::int AS n FROM responses WHERE form_id = $1', [form.id]);
    if (rows[0].n !== count) throw new Error(`seeded ${rows[0].n} responses instead of ${count}`);
  } finally {
    await client.end();
  }
}

/** Bytes of the schema's tables with their indexes and TOAST (the SQLite figure is the file's size). */
async function schemaBytes(pg) {
  const client = await connectPg(pg);
  try {
    const { rows } = await client.query(
      "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'",
      [pg.schema],
    );
    return Number(rows[0].b);
  } finally {
    await client.end();
  }
}

// ---- the CSV export's reference: the database's CLI ----

/** The rows the CLI dumps: the export's rows in its order, with the answers as the stored JSON. */
const exportSql = (formId) => `SELECT id, submitted_at, completed_at, answers FROM responses WHERE form_id='${formId}' ORDER BY submitted_at, id`;

/**
 * How to run the CLI for the bench's database: { name, bin, args, env, knob }. On PostgreSQL the
 * connection names the schema as Formloom's own does (`-c search_path=<schema>`), so the SELECT is the
 * same text on both databases.
 */
function csvCli(h, formId) {
  const app = h.formloom;
  if (!app.pg) {
    return { name: 'sqlite3', label: 'sqlite3 -csv', bin: h.config.sqlite3, args: ['-csv', app.dbFile, exportSql(formId)], env: process.env, knob: 'BENCH_SQLITE3' };
  }
  return {
    name: 'psql',
    label: 'psql \\copy',
    bin: h.config.psql,
    // -X: no ~/.psqlrc; ON_ERROR_STOP: a failed \copy exits non-zero.
    args: ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', app.pg.url, '-c', `\\copy (${exportSql(formId)}) TO STDOUT WITH CSV HEADER`],
    env: { ...process.env, PGOPTIONS: `-c search_path=${app.pg.schema}` },
    knob: 'BENCH_PSQL',
  };
}

/** One run of `cli` writing to /dev/null; resolves with its wall time and the CPU window's figures. */
function cliOnce(h, cli) {
  return new Promise((resolve, reject) => {
    const devNull = fs.openSync('/dev/null', 'w');
    const cpu = h.cpuWindow([], { reapedChildren: true });
    const t0 = monoMs();
    const child = spawn(cli.bin, cli.args, { stdio: ['ignore', devNull, 'pipe'], env: cli.env });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', (e) => (fs.closeSync(devNull), reject(e)));
    child.once('exit', (code) => {
      const ms = monoMs() - t0;
      fs.closeSync(devNull);
      if (code !== 0) return reject(new Error(`${cli.bin} exited with ${code}: ${stderr}`));
      resolve({ ms: round(ms, 1), ...cpu.end() });
    });
  });
}

function countNewlines(buf) {
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

/** The CLI's output of the same query, counted (not timed): its size and lines, for the table. */
function cliOutput(cli) {
  return new Promise((resolve, reject) => {
    const child = spawn(cli.bin, cli.args, { stdio: ['ignore', 'pipe', 'ignore'], env: cli.env });
    let bytes = 0;
    let lines = 0;
    child.stdout.on('data', (c) => ((bytes += c.length), (lines += countNewlines(c))));
    child.once('error', reject);
    child.once('close', () => resolve({ bytes, lines }));
  });
}

// ---- a statement alone ----

/**
 * A connection of this process to the app's database, with the app's own driver, running `sql` (one `?`
 * parameter): { label, run(param), close() }.
 */
async function statementAlone(app, sql) {
  if (app.pg) {
    const client = await connectPg(app.pg);
    const numberedSql = numbered(sql);
    return { label: 'pg, same schema', run: (param) => client.query(numberedSql, [param]), close: () => client.end() };
  }
  const db = new sqlite3.Database(app.dbFile, sqlite3.OPEN_READONLY);
  return {
    label: 'sqlite3, same file',
    run: (param) => new Promise((resolve, reject) => db.all(sql, [param], (err, rows) => (err ? reject(err) : resolve(rows)))),
    close: () => new Promise((resolve) => db.close(resolve)),
  };
}

module.exports = { seedResponsesPg, schemaBytes, csvCli, cliOnce, cliOutput, countNewlines, statementAlone };
