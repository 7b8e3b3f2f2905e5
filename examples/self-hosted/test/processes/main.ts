import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';

const MAIN = resolve(__dirname, '../../src/main.js');

test('main logs where it listens, serves, and stops cleanly on SIGTERM', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'formloom-main-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const env: Record<string, string | undefined> = { ...process.env, PORT: '0' };
  // Defaults only: the database and data dir land under the working directory.
  delete env.FORMLOOM_DATABASE_URL;
  delete env.FORMLOOM_DATA_DIR;
  const child = spawn(process.execPath, [MAIN], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));

  const url = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /"msg":"Formloom listening on (http:\/\/127\.0\.0\.1:\d+)"/.exec(stdout);
      if (m) ok(m[1]!);
    });
    child.once('exit', () => fail(new Error(`exited early: ${stderr}`)));
  });
  const health = await fetch(`${url}/healthz`);
  t.deepEqual(await health.json(), { status: 'ok' });

  child.kill('SIGTERM');
  t.is(await exited, 0, stderr);
});
