import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startAppProcess } from './helpers/app-process';
import sqlite3 from 'sqlite3';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';

/*
 * Group commit under kill -9 (docs/decisions.md, "Group commit"): submissions are answered 201 only once the
 * transaction holding them committed, so killing the app under load loses none that were answered, and the
 * rollups and counters written in the same transactions still equal a recount of the stored responses. The
 * analytics indexer's backlog (docs/decisions.md, "The analytics indexer") is counted when the app starts again.
 */


const query = (file: string, sql: string, params: unknown[] = []) =>
  new Promise<any[]>((ok, fail) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return fail(err);
      db.all(sql, params, (e, rows) => db.close(() => (e ? fail(e) : ok(rows))));
    });
  });

test('kill -9 under concurrent submissions: no answered response lost, rollups and counts equal a recount', async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-group-commit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'formloom.sqlite');
  const env = { ...process.env, PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${file}`, FORMLOOM_RATE_LIMIT_SUBMISSIONS: '1000000' };
  // The file comes migrated (a copy of the test template): what is checked is the restart, not a new file's migrations.
  await migratedSqliteFile(file);
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
  await cli('user', 'create', '--email', 'kill@example.com', '--plan', 'pro');
  const { api_key } = await cli('key', 'create', '--user', 'kill@example.com');
  const app = await startAppProcess(env);
  t.teardown(() => void app.child.kill('SIGKILL'));
  const questions = [
    { type: 'short_text', title: 'Name', required: true },
    { type: 'rating', title: 'Score', properties: { steps: 5 } },
  ];
  const created = await fetch(`${app.url}/api/v1/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Kill', published: true, questions }),
  }).then((r) => r.json() as Promise<any>);
  const [name, score] = created.questions.map((q: { id: string }) => q.id);

  // 32 respondents submit back to back; every 201's id is recorded the moment it arrives.
  const acknowledged: string[] = [];
  let killed = false;
  const respondent = async (r: number) => {
    for (let n = 0; !killed; n++) {
      try {
        const res = await fetch(`${app.url}/api/v1/public/forms/${created.slug}/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ answers: [{ question_id: name, value: `r${r}-${n}` }, { question_id: score, value: 1 + (n % 5) }] }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
        else t.fail(`status ${res.status}`);
      } catch {
        return; // the connection died with the app
      }
    }
  };
  const load = Array.from({ length: 32 }, (_, r) => respondent(r));
  await waitFor(() => acknowledged.length >= 300, { intervalMs: 5 }).catch(() => undefined);
  killed = true;
  app.child.kill('SIGKILL');
  const answered = [...acknowledged];
  await Promise.all(load);
  t.true(answered.length >= 300, `only ${answered.length} answered`);

  const stored = new Set((await query(file, 'SELECT id FROM responses WHERE form_id = ?', [created.id])).map((r) => r.id as string));
  t.deepEqual(answered.filter((id) => !stored.has(id)), [], 'every answered submission is stored');
  const [form] = await query(file, 'SELECT response_count FROM forms WHERE id = ?', [created.id]);
  t.is(Number(form.response_count), stored.size, 'the form counts exactly the stored responses');
  const [days] = await query(file, 'SELECT SUM(total) AS total, SUM(completed) AS completed FROM response_days WHERE form_id = ?', [created.id]);
  t.is(Number(days.total), stored.size, 'the day rollup equals a recount');
  t.is(Number(days.completed), stored.size);
  const answeredOf = async (q: string) =>
    Number((await query(file, 'SELECT SUM(answered) AS answered FROM question_days WHERE form_id = ? AND question_id = ?', [created.id, q]))[0].answered ?? 0);
  const queued = async () => Number((await query(file, 'SELECT COUNT(*) AS n FROM response_index_queue WHERE form_id = ?', [created.id]))[0].n);
  const backlog = await queued();
  t.log(`${backlog} of ${stored.size} responses were waiting for the indexer at the kill`);
  for (const q of [name, score]) t.is((await answeredOf(q)) + backlog, stored.size, `each response of ${q} is counted or queued, never both`);

  // Started again, the app counts the backlog by itself (its indexer's first pass), with no read asking.
  const again = await startAppProcess(env);
  t.teardown(() => void again.child.kill('SIGKILL'));
  await waitFor(async () => (await queued()) === 0, { what: 'the backlog counted' });
  for (const q of [name, score]) t.is(await answeredOf(q), stored.size, `the question rollup of ${q} equals a recount`);
});
