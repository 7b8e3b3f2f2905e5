'use strict';
// The ceiling (bench/lib/ceiling.js, the baseline with BASELINE_CEILING=1): it must answer what the bare
// baseline answers, from memory, and commit every submission, grouped.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('ava');
const sqlite3 = require('sqlite3');
const { groupCommit, MAX_BATCH } = require('../lib/ceiling');
const { freePort, startProcess, waitForHttp } = require('../lib/process');
const { answersFor } = require('../scenarios/ingest');
const { formId, INGEST_FORM_ID } = require('../baseline-app');

const BASELINE_MAIN = path.join(__dirname, '..', 'baseline-app.js');
const API_KEY = `fl_abcdefgh12345678_${'ab'.repeat(32)}`;
const INSERT = 'INSERT INTO t (a, b) VALUES (?, ?, NULL)';

/** A fake database: records each transaction's statements; each commit waits until `release()` is called. */
function recordingDb() {
  const transactions = [];
  const waiting = [];
  return {
    transactions,
    transaction: async (work) => {
      const statements = [];
      transactions.push(statements);
      await work(statements);
      await new Promise((resolve) => waiting.push(resolve));
    },
    run: async (tx, sql, params) => tx.push({ sql, params }),
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
    waitingCount: () => waiting.length,
  };
}

/** Resolves once `condition()` holds, polling each turn of the event loop (fails after 10 s). */
async function until(condition) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('group commit: what arrives while a transaction commits goes into the next one, one INSERT and one count per form', async (t) => {
  const db = recordingDb();
  const write = groupCommit({ transaction: db.transaction, run: db.run, insertSql: INSERT });
  const first = write([1, 'x'], 'f1');
  await until(() => db.waitingCount() === 1);
  const rest = [write([2, 'y'], 'f1'), write([3, 'z'], 'f2'), write([4, 'w'], 'f1')];
  db.release();
  await first;
  await until(() => db.waitingCount() === 1);
  db.release();
  await Promise.all(rest);
  t.is(db.transactions.length, 2);
  t.deepEqual(db.transactions[1], [
    { sql: 'INSERT INTO t (a, b) VALUES (?, ?, NULL), (?, ?, NULL), (?, ?, NULL)', params: [2, 'y', 3, 'z', 4, 'w'] },
    { sql: 'UPDATE forms SET response_count = response_count + ? WHERE id = ?', params: [2, 'f1'] },
    { sql: 'UPDATE forms SET response_count = response_count + ? WHERE id = ?', params: [1, 'f2'] },
  ]);
});

test('group commit: a failed transaction fails its own writes only, and batches stay under the cap', async (t) => {
  let calls = 0;
  const sizes = [];
  const write = groupCommit({
    transaction: async (work) => {
      calls++;
      const statements = [];
      await work(statements);
      sizes.push(statements[0].params.length / 2);
      if (calls === 1) throw new Error('disk full');
    },
    run: async (tx, sql, params) => tx.push({ sql, params }),
    insertSql: INSERT,
  });
  const failed = write([0, 'a'], 'f');
  const later = Array.from({ length: MAX_BATCH + 1 }, (_, i) => write([i + 1, 'b'], 'f'));
  await t.throwsAsync(failed, { message: 'disk full' });
  await Promise.all(later);
  t.deepEqual(sizes, [1, MAX_BATCH, 1]);
});

/** Starts bench/baseline-app.js on `file`; resolves with its URL and process. */
async function startApp(t, file, ceiling) {
  const port = await freePort();
  const proc = startProcess({
    name: ceiling ? 'ceiling' : 'baseline',
    args: [BASELINE_MAIN],
    env: { PORT: String(port), BASELINE_DB: file, BASELINE_API_KEY: API_KEY, BASELINE_FORMS: '3', BASELINE_CEILING: ceiling ? '1' : '0' },
  });
  t.teardown(() => proc.stop());
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, { proc, timeoutMs: 60_000 });
  return { url, proc };
}

const get = (url, key = API_KEY) => fetch(url, { headers: { authorization: `Bearer ${key}` } });

test('the ceiling answers the bare baseline\'s form bytes after the same key check, and commits every submission', async (t) => {
  t.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-bench-ceiling-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'bench.sqlite');
  const bare = await startApp(t, file, false); // seeds the file
  const expected = await (await get(`${bare.url}/api/v1/forms/${formId(1)}`)).text();
  await bare.proc.stop();

  const { url } = await startApp(t, file, true);
  for (let i = 0; i < 2; i++) {
    const res = await get(`${url}/api/v1/forms/${formId(1)}`); // from the database, then from memory
    t.is(res.status, 200);
    t.regex(res.headers.get('content-type'), /^application\/json/);
    t.truthy(res.headers.get('etag'));
    t.is(await res.text(), expected);
  }
  t.is((await get(`${url}/api/v1/forms/${formId(1)}`, API_KEY.replace(/ab$/, 'ac'))).status, 401);
  t.is((await get(`${url}/api/v1/forms/${formId(1)}`, 'fl_nope')).status, 401);
  t.is((await get(`${url}/api/v1/forms/frm_missing`)).status, 404);

  const form = JSON.parse(await (await get(`${url}/api/v1/forms/${INGEST_FORM_ID}`)).text());
  const submit = (n) =>
    fetch(`${url}/api/v1/public/forms/${form.slug}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: answersFor(form.questions, n), visitor_id: `v-${n}` }),
    });
  const statuses = await Promise.all(Array.from({ length: 40 }, (_, n) => submit(n).then((r) => r.status)));
  t.deepEqual([...new Set(statuses)], [201]);

  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  t.teardown(() => new Promise((resolve) => db.close(resolve)));
  const row = await new Promise((resolve, reject) =>
    db.get('SELECT (SELECT count(*) FROM responses WHERE form_id = f.id) AS n, f.response_count AS counted FROM forms f WHERE f.id = ?', [INGEST_FORM_ID], (e, r) => (e ? reject(e) : resolve(r))),
  );
  t.deepEqual(row, { n: 40, counted: 40 });
});
