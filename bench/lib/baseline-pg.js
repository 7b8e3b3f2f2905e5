'use strict';
// The baseline's database on PostgreSQL: a `pg` pool in one schema, with the `(db, method, sql, params)`
// calls of bench/baseline-app.js (`?` placeholders turned into `$n`, `get` as the first row, `run`), and a
// transaction on a client of its own (BEGIN ... COMMIT, each statement a round trip, as the app does).
const { Pool } = require('pg');

const numbered = (sql) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

function openPg(url, schema) {
  const pool = new Pool({ connectionString: url, max: 10, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
  const on = (client) => ({
    isPg: true,
    all: (sql, params, cb) => client.query(numbered(sql), params).then((r) => cb(null, r.rows), (e) => cb(e)),
    get: (sql, params, cb) => client.query(numbered(sql), params).then((r) => cb(null, r.rows[0]), (e) => cb(e)),
    run: (sql, params, cb) => client.query(numbered(sql), params).then(() => cb(null), (e) => cb(e)),
  });
  return {
    ...on(pool),
    async exec(sql) {
      if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: (cb) => pool.end().then(() => cb && cb(), () => cb && cb()),
  };
}

module.exports = { openPg };
