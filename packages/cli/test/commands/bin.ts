import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';

const BIN = resolve(__dirname, '../../../bin/formloom.js');

function formloom(args: string[], opts: { cwd: string; env?: Record<string, string> }) {
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  if (!opts.env?.FORMLOOM_DATABASE_URL) delete env.FORMLOOM_DATABASE_URL;
  return spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd, env, encoding: 'utf8', timeout: 120_000 });
}

test('the bin runs on a fresh directory with the default database under ./data', (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'formloom-bin-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));

  const user = formloom(['user', 'create', '--email', 'ada@example.com', '--plan', 'pro'], { cwd });
  t.is(user.stderr, `formloom: database sqlite:${join(cwd, 'data', 'formloom.sqlite')}\n`);
  t.is(user.status, 0);
  const created = JSON.parse(user.stdout);
  t.like(created, { email: 'ada@example.com', plan: 'pro' });
  t.true(existsSync(join(cwd, 'data', 'formloom.sqlite')));

  const key = formloom(['key', 'create', '--user', 'ada@example.com'], { cwd });
  t.is(key.status, 0);
  t.like(JSON.parse(key.stdout), { scope: 'forms' });
});

test('the bin fails with one line on stderr, no stack trace', (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'formloom-bin-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const env = { FORMLOOM_DATABASE_URL: `sqlite:${join(cwd, 'db.sqlite')}` };

  for (const args of [['plan', 'set', '--user', 'nobody@example.com', '--plan', 'pro'], ['launch'], ['user', 'create']]) {
    const r = formloom(args, { cwd, env });
    t.not(r.status, 0, args.join(' '));
    t.is(r.stdout, '');
    t.regex(r.stderr, /^(formloom: database sqlite:[^\n]+\n)?formloom: [^\n]+\n$/);
  }
  const badUrl = formloom(['migrate'], { cwd, env: { FORMLOOM_DATABASE_URL: 'mysql://localhost/db' } });
  t.is(badUrl.status, 1);
  t.regex(badUrl.stderr, /^formloom: FORMLOOM_DATABASE_URL[^\n]+\n$/);
});
