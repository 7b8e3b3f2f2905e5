import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { startSelfHosted } from '../../src';

const run = promisify(execFile);

/** The curl walk-through of docs/accounts.md, run as written against `npm start`'s app on an empty instance. */
test('docs/accounts.md: the command-line session example runs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-accounts-doc-'));
  const app = await startSelfHosted({ PORT: '0', FORMLOOM_DATA_DIR: join(dir, 'data'), FORMLOOM_LOG_LEVEL: 'silent' });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const doc = readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'docs', 'accounts.md'), 'utf8');
  const script = /<!-- accounts-example -->\n```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!script) throw new Error('docs/accounts.md lost its example');
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env: { ...process.env, BASE: app.publicUrl }, timeout: 60_000 });
  t.regex(stdout, /"email":"ada@example.com"/);
  t.regex(stdout, /"title":"Feedback"/);
  t.regex(stdout, /"api_key":"fl_/);
  // The default mode is invite: after the first (admin) account, a stranger is refused.
  const res = await fetch(`${app.publicUrl}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.publicUrl },
    body: JSON.stringify({ email: 'stranger@example.com', password: 'a long passphrase' }),
  });
  t.is(res.status, 403);
  t.like(await res.json(), { error: { reason: 'signup_invite_only' } });
});
