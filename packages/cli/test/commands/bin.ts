import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';

const BIN = resolve(__dirname, '../../../bin/formloom.js');

/**
 * Runs the bin as its own process. Asynchronous: a synchronous child would stop this worker's event loop, and
 * with it every other test of the file, for each CLI start.
 */
function formloom(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  if (!opts.env?.FORMLOOM_DATABASE_URL) delete env.FORMLOOM_DATABASE_URL;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((ok, fail) => {
    child.once('error', fail);
    child.once('close', (status) => ok({ status, stdout, stderr }));
  });
}

test('the bin runs on a fresh directory with the default database under ./data', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'formloom-bin-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));

  const user = await formloom(['user', 'create', '--email', 'ada@example.com', '--plan', 'pro'], { cwd });
  t.is(user.stderr, `formloom: database sqlite:${join(cwd, 'data', 'formloom.sqlite')}\n`);
  t.is(user.status, 0);
  const created = JSON.parse(user.stdout);
  t.like(created, { email: 'ada@example.com', plan: 'pro' });
  t.true(existsSync(join(cwd, 'data', 'formloom.sqlite')));

  const key = await formloom(['key', 'create', '--user', 'ada@example.com'], { cwd });
  t.is(key.status, 0);
  t.like(JSON.parse(key.stdout), { scope: 'forms' });
});

test('the bin fails with one line on stderr, no stack trace', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'formloom-bin-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const env = { FORMLOOM_DATABASE_URL: `sqlite:${join(cwd, 'db.sqlite')}` };

  // Side by side: only the first opens the database (the others fail before), so they do not meet on its file.
  const cases = [['plan', 'set', '--user', 'nobody@example.com', '--plan', 'pro'], ['launch'], ['user', 'create']];
  const [results, badUrl] = await Promise.all([
    Promise.all(cases.map((args) => formloom(args, { cwd, env }))),
    formloom(['migrate'], { cwd, env: { FORMLOOM_DATABASE_URL: 'mysql://localhost/db' } }),
  ]);
  results.forEach((r, i) => {
    t.not(r.status, 0, cases[i]!.join(' '));
    t.is(r.stdout, '');
    t.regex(r.stderr, /^(formloom: database sqlite:[^\n]+\n)?formloom: [^\n]+\n$/);
  });
  t.is(badUrl.status, 1);
  t.regex(badUrl.stderr, /^formloom: FORMLOOM_DATABASE_URL[^\n]+\n$/);
});
