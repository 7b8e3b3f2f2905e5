import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { startSelfHosted } from '../src';

/*
 * The self-hosted app's close() (docs/operations.md, "Process managers"). Its own file: merged into the instance
 * entry, the first test once sat idle for over ten minutes (a clean-clone run of 24a8d0d7). Traced: it waited for
 * `form.created` to call close(), and in runs where every request failed (all 30 answered 500 in a loaded process
 * running the other instance tests) that event never came, so close() was never called and the test never ended.
 * It now closes once every request has its answer when no form was stored, and fails with the answers and the
 * app's errors instead.
 */

/** A data folder with a migrated database (these tests are about stopping, not about a new file's migrations). */
async function dataDir(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-shutdown-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  return { dir, env: { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`, FORMLOOM_LOG_LEVEL: 'info' } };
}

test('close() lets requests in flight finish before the database closes', async (t) => {
  const { env } = await dataDir(t);
  // The app's lines are kept (not printed): a failing run shows its errors and its 5xx requests.
  const logged: string[] = [];
  const app = await startSelfHosted(env, { write: (line: string) => void logged.push(line) });
  await runCli(['user', 'create', '--email', 'stop@example.com'], env);
  const { api_key } = JSON.parse((await runCli(['key', 'create', '--user', 'stop@example.com'], env)).stdout);
  const questions = Array.from({ length: 10 }, (_, i) => ({ type: 'short_text', title: `Q${i}` }));
  // Stop as soon as the first form is stored: the other requests are then being handled. With none stored the
  // event never comes: close() is then called once every request has its answer, and the test fails on those.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= app.close());
  app.formloom.events.once('form.created', () => void close());
  const requests = Array.from({ length: 30 }, (_, i) =>
    fetch(`${app.url}/api/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `F${i}`, questions }),
    }).then(
      // Anything but 201 keeps the start of its body: the error a failing run needs to be traced.
      async (r) => (r.status === 201 ? 201 : `${r.status} ${(await r.text().catch(() => '')).slice(0, 200)}`),
      () => 'refused',
    ),
  );
  const statuses = await Promise.all(requests);
  await close();
  const seen = JSON.stringify({ statuses, errors: logged.filter((l) => /"level":[56]0|"status":5/.test(l)).slice(0, 5) });
  t.true(statuses.every((s) => s === 201 || s === 'refused'), seen);
  t.true(statuses.some((s) => s === 201), seen);
});

test('close() finishes with an upgraded connection open (a WebSocket a host serves on the same server)', async (t) => {
  const { env } = await dataDir(t);
  const app = await startSelfHosted({ ...env, FORMLOOM_LOG_LEVEL: 'silent' });
  // What a WebSocket library does on `upgrade`: it answers 101 and keeps the socket, which Node's HTTP server then
  // no longer counts among its connections. close() ended those only, and waited for the server's 'close' forever.
  app.server.on('upgrade', (_req, socket) => void socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
  const client = connect(app.port, '127.0.0.1');
  t.teardown(() => void client.destroy());
  const switched = new Promise<string>((resolve) => client.once('data', (d) => resolve(String(d))));
  const ended = new Promise<void>((resolve) => client.once('close', () => resolve()));
  client.write('GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  t.regex(await switched, /^HTTP\/1\.1 101 /);
  await app.close();
  await ended;
  t.pass();
});
