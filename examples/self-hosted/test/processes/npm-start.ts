import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';

const ROOT = resolve(__dirname, '../../../../..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('`npm start` stops cleanly on SIGTERM sent to npm: the server gets it, exits, and leaves no orphan', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-npm-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env: Record<string, string | undefined> = { ...process.env, PORT: '0', FORMLOOM_DATA_DIR: dir };
  delete env.FORMLOOM_DATABASE_URL;
  delete env.MALLOC_ARENA_MAX;
  // `--ignore-scripts` skips only `prestart` (the whole build, which `npm test` has just run): npm still runs
  // the `start` script itself, through its shell, as `npm start` does (docs/testing.md, "What it costs").
  const npm = spawn('npm', ['start', '--ignore-scripts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stderr.on('data', (d) => (out += d));
  const npmExited = new Promise<void>((ok) => npm.once('exit', () => ok()));
  const outputClosed = new Promise<void>((ok) => npm.stdout.once('close', () => ok()));
  let serverPid = 0;
  t.teardown(() => {
    // Only if the test failed half-way: the processes this test started.
    if (serverPid && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    if (npm.exitCode === null) npm.kill('SIGKILL');
  });
  const url = await new Promise<string>((ok, fail) => {
    npm.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"msg":"Formloom listening on'));
      if (line) {
        const parsed = JSON.parse(line) as { pid: number; url: string };
        serverPid = parsed.pid;
        ok(parsed.url);
      }
    });
    npm.once('exit', () => fail(new Error(`npm start exited early: ${out}`)));
  });
  t.not(serverPid, npm.pid, 'the server is its own process under npm');
  t.is((await fetch(`${url}/healthz`)).status, 200);
  // Started by the launcher, with its malloc setting (docs/operations.md, "Memory").
  t.true(readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0').includes('MALLOC_ARENA_MAX=2'));

  npm.kill('SIGTERM');
  await npmExited;
  // The server holds the output pipe until it exits: its closing means the server (and any child) is gone.
  await outputClosed;
  t.false(alive(serverPid), 'no orphaned server');
  t.regex(out, /"msg":"Formloom stopping".*"signal":"SIGTERM"|"signal":"SIGTERM".*"msg":"Formloom stopping"/);
  t.regex(out, /"msg":"Formloom stopped"/, 'it stopped cleanly (database closed)');
});
