import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { downServer, startAppProcess } from './helpers/app-process';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { createDataSource } from '@formloom/storage-typeorm';


test('deliveries pending when the app is killed are delivered after a restart', async (t) => {
  t.timeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
    FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
  };
  // The file comes migrated (a copy of the test template): what is checked is the restart, not a new file's migrations.
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
  await cli('user', 'create', '--email', 'crash@example.com', '--plan', 'pro');
  const { api_key } = await cli('key', 'create', '--user', 'crash@example.com');
  // The receiver is down (it holds its port and cuts every connection) until the restart (helpers/app-process.ts).
  const got = new Map<string, number>();
  const receiver = await downServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const id = JSON.parse(body).response.id as string;
      got.set(id, (got.get(id) ?? 0) + 1);
      res.end();
    });
  });
  t.teardown(() => receiver.close());
  const { port } = receiver;

  let app = await startAppProcess(env);
  const api = (path: string, body: unknown, key?: string) =>
    fetch(`${app.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const form = (await api('/forms', { title: 'Crash', published: true, webhook_url: `http://127.0.0.1:${port}/hook` }, api_key)).body;
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push((await api(`/public/forms/${form.slug}/responses`, { answers: [] })).body.id);
  // The receiver is down: every first attempt fails and waits for its retry (about 10 s later). Once the
  // log shows each delivery failed once and still pending, kill without any clean-up.
  const deliveries = await waitFor(
    async () => {
      const res = await fetch(`${app.url}/api/v1/forms/${form.id}/webhooks/deliveries?limit=100`, { headers: { authorization: `Bearer ${api_key}` } });
      const list = ((await res.json()) as { deliveries: Array<{ status: string; attempts: number }> }).deliveries;
      return list.length === ids.length && list.every((d) => d.attempts >= 1) && list;
    },
    { what: 'a failed first attempt of every delivery' },
  );
  t.true(deliveries.every((d) => d.status === 'pending' && d.attempts === 1), JSON.stringify(deliveries));
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));

  // Each retry is due about 10 s after its failed attempt: the test moves that time into the past in the
  // database rather than waiting for it (as integration-crash does). What it checks is that the restarted
  // app delivers every pending item once, not how long the retry delay is.
  const db = createDataSource(env.FORMLOOM_DATABASE_URL);
  await db.initialize();
  try {
    const rows: Array<{ n: number }> = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'webhook' AND status = 'pending' AND attempts = 1`);
    t.is(Number(rows[0]!.n), ids.length, 'every delivery still pending after its one failed attempt');
    const past = new Date(Date.now() - 1000).toISOString();
    await db.query(`UPDATE outbox SET next_attempt_at = ? WHERE status = 'pending'`, [past]);
  } finally {
    await db.destroy();
  }

  receiver.up();
  app = await startAppProcess(env);
  t.teardown(() => app.child.kill('SIGKILL'));
  // Waits for the outcome, generously on a busy machine.
  t.timeout(300_000);
  await waitFor(() => got.size >= ids.length, { timeoutMs: 180_000, intervalMs: 100, what: 'every delivery after the restart' }).catch(() => undefined);
  t.deepEqual([...got.keys()].sort(), [...ids].sort(), 'every response delivered after the restart');
  t.true([...got.values()].every((n) => n === 1));
});
