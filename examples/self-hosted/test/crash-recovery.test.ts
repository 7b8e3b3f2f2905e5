import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { freePort, startAppProcess } from './helpers/app-process';
import { runCli } from '@formloom/cli';


test('deliveries pending when the app is killed are delivered after a restart', async (t) => {
  t.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
    FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
  };
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
  await cli('user', 'create', '--email', 'crash@example.com', '--plan', 'pro');
  const { api_key } = await cli('key', 'create', '--user', 'crash@example.com');
  const port = await freePort();

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
  // The receiver is down: every first attempt fails and waits for its retry. Kill without any clean-up.
  await new Promise((r) => setTimeout(r, 500));
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));

  const got = new Map<string, number>();
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const id = JSON.parse(body).response.id as string;
      got.set(id, (got.get(id) ?? 0) + 1);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', () => r()));
  app = await startAppProcess(env);
  t.teardown(() => {
    app.child.kill('SIGKILL');
    receiver.close();
  });
  // Waits for the outcome (retries come about 10 s after each failed attempt), generously on a busy machine.
  t.timeout(300_000);
  const deadline = Date.now() + 180_000;
  while (got.size < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  t.deepEqual([...got.keys()].sort(), [...ids].sort(), 'every response delivered after the restart');
  t.true([...got.values()].every((n) => n === 1));
});
