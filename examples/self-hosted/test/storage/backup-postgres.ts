import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { createTestDatabase, type TestDatabase } from '@formloom/storage-typeorm/testing';
import { startSelfHosted, type SelfHosted } from '../../src';

/*
 * PostgreSQL is backed up with its own tools (docs/backup-and-restore.md, "PostgreSQL"): the commands the guide
 * gives, `pg_dump -Fc -n <schema>` while the instance runs and `pg_restore --clean --if-exists` with it stopped,
 * bring back every table row by row and the files kept in the database (FORMLOOM_BLOB_STORE=postgres, its default).
 */

const run = promisify(execFile);
const silent = { write: () => undefined };

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Every table of a Formloom schema, each as its rows' JSON, sorted. */
async function tables(query: Query, schema: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { name } of await query('SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [schema])) {
    out[name as string] = (await query(`SELECT * FROM "${schema}"."${name as string}"`)).map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

async function submitWithFile(app: SelfHosted, form: { slug: string; questions: { id: string }[] }, i: number) {
  const body = new FormData();
  body.append('file', new Blob([`file ${i} `.repeat(100)], { type: 'application/pdf' }), `cv-${i}.pdf`);
  const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[1]!.id}`, { method: 'POST', body });
  const file = await up.json();
  const r = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers: [{ question_id: form.questions[0]!.id, value: `respondent ${i}` }, { question_id: form.questions[1]!.id, value: file }] }),
  });
  if (r.status !== 201) throw new Error(`submit ${r.status} ${await r.text()}`);
}

test('[postgres] the guide\'s pg_dump and pg_restore bring an instance back: every table, every file', async (t) => {
  const source = await createTestDatabase('postgres');
  // Its analytics indexer never runs on its own (hours apart): it would count the responses the dump holds still
  // queued (the restored instance counts them later) in the middle of the comparison.
  const target = await createTestDatabase('postgres', { indexer: { debounceMs: 3_600_000, intervalMs: 3_600_000 } });
  const dir = mkdtempSync(join(tmpdir(), 'formloom-pg-backup-'));
  t.teardown(async () => {
    await source.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = { PORT: '0', FORMLOOM_DATA_DIR: join(dir, 'a'), FORMLOOM_DATABASE_URL: source.url, FORMLOOM_LOG_LEVEL: 'silent' };
  const app = await startSelfHosted(env, silent);
  t.teardown(() => app.close().catch(() => undefined));
  t.is((await runCli(['user', 'create', '--email', 'ops@example.com', '--plan', 'pro'], env)).code, 0);
  const key = (JSON.parse((await runCli(['key', 'create', '--user', 'ops@example.com'], env)).stdout) as { api_key: string }).api_key;
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const form = (await (
    await fetch(`${app.url}/api/v1/forms`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Kept', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'file_upload', title: 'CV' }] }),
    })
  ).json()) as { id: string; slug: string; questions: { id: string }[] };
  for (let i = 0; i < 2; i++) await submitWithFile(app, form, i);

  // While the instance runs: one snapshot of its schema (the URL's search_path), the files with it. The
  // instance keeps writing (rate-limit counters, housekeeping), so what the dump must hold is read in the very
  // snapshot pg_dump takes: exported by a repeatable-read transaction and handed to it with --snapshot.
  const dump = join(dir, 'formloom.dump');
  const reader = source.dataSource.createQueryRunner(); // one connection: the snapshot is its transaction's
  await reader.connect();
  let before: Record<string, string[]>;
  try {
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const [{ snapshot }] = (await reader.query('SELECT pg_export_snapshot() AS snapshot')) as { snapshot: string }[];
    await run('pg_dump', ['-Fc', '-d', source.url.split('?')[0]!, '-n', source.schema!, `--snapshot=${snapshot!}`, '-f', dump]);
    before = await tables((sql, params) => reader.query(sql, params), source.schema!);
    await reader.query('COMMIT');
  } finally {
    await reader.release();
  }
  await app.close();
  t.is(before.blobs!.length, 2, 'the two files are in the database');
  t.true(before.blob_chunks!.length >= 2);

  // Every instance stopped, into another database (its own empty tables replaced: --clean).
  await run('pg_restore', ['--clean', '--if-exists', '-d', target.url.split('?')[0]!, dump]);
  // Read through the data source, not the test storage, whose first call starts that indexer.
  t.deepEqual(await tables((sql, params) => target.dataSource.query(sql, params), target.schema!), before, 'every table, row by row');

  const back = await startSelfHosted({ ...env, FORMLOOM_DATA_DIR: join(dir, 'b'), FORMLOOM_DATABASE_URL: target.url, FORMLOOM_SECRET_KEY: readFileSync(join(dir, 'a', 'secret.key'), 'utf8').trim() }, silent);
  t.teardown(() => back.close());
  const list = (await (await fetch(`${back.url}/api/v1/forms/${form.id}/responses`, { headers: auth })).json()) as { total: number; responses: { answers: { value: any }[] }[] };
  t.is(list.total, 2);
  for (const response of list.responses) {
    const file = response.answers.find((a) => a.value?.url)!.value as { url: string };
    const got = await fetch(new URL(new URL(file.url).pathname, back.url), { headers: auth });
    t.is(got.status, 200, 'an uploaded file opens from the restored database');
    t.regex(await got.text(), /^file \d /);
  }
});
