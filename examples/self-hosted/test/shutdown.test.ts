import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { startSelfHosted } from '../src';

test('close() lets requests in flight finish before the database closes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-shutdown-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}` };
  const app = await startSelfHosted(env);
  await runCli(['user', 'create', '--email', 'stop@example.com'], env);
  const { api_key } = JSON.parse((await runCli(['key', 'create', '--user', 'stop@example.com'], env)).stdout);
  const questions = Array.from({ length: 10 }, (_, i) => ({ type: 'short_text', title: `Q${i}` }));
  // Stop as soon as the first form is stored: the other requests are then being handled.
  const closing = new Promise<void>((resolve) => app.formloom.events.once('form.created', () => resolve(app.close())));
  const requests = Array.from({ length: 30 }, (_, i) =>
    fetch(`${app.url}/api/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `F${i}`, questions }),
    }).then(
      (r) => r.status,
      () => 'refused',
    ),
  );
  const statuses = await Promise.all(requests);
  await closing;
  t.true(statuses.every((s) => s === 201 || s === 'refused'), JSON.stringify(statuses));
  t.true(statuses.some((s) => s === 201));
});
