import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { createTestDatabase, migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { startSelfHosted } from '../../src';

/** Starts the app with its JSON lines captured instead of printed. */
async function startCaptured(extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-ops-'));
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_LOG_LEVEL: 'info', ...extra };
  const lines: string[] = [];
  // The data folder's default database, migrated already unless the test names one (the subject is the log).
  if (!extra.FORMLOOM_DATABASE_URL) await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const app = await startSelfHosted(env, { write: (s: string) => void lines.push(s) });
  return { app, dir, env, lines, stop: async () => (await app.close(), rmSync(dir, { recursive: true, force: true })) };
}

const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

test('one JSON line per request with id, method, route pattern, status and ms; secrets never logged', async (t) => {
  const { app, env, lines, stop } = await startCaptured();
  t.teardown(stop);
  const created = await runCli(['user', 'create', '--email', 'ops@example.com', '--plan', 'pro'], env);
  t.is(created.code, 0, created.stderr);
  const { api_key } = JSON.parse((await runCli(['key', 'create', '--user', 'ops@example.com'], env)).stdout) as { api_key: string };
  const inviteToken = 'inv-secret-token-4b1f9e';
  const resumeToken = 'resume-secret-77acd1';
  const accessToken = 'access-secret-a9f0';
  const cookie = 'session=cookie-secret-55e1';
  const secrets = [api_key, inviteToken, resumeToken, accessToken, 'cookie-secret-55e1', 'query-secret-0c3d'];
  const send = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, init);

  const list = await send('/api/v1/forms?token=query-secret-0c3d', { headers: { authorization: `Bearer ${api_key}`, 'x-request-id': 'req-abc.123', cookie } });
  t.is(list.status, 200);
  t.is(list.headers.get('x-request-id'), 'req-abc.123', 'a sane client id is echoed');
  const accept = await send(`/api/v1/invitations/${inviteToken}/accept`, { method: 'POST', headers: { authorization: `Bearer ${api_key}`, 'x-access-token': accessToken } });
  t.true(accept.status >= 400 && accept.status < 500);
  const generated = accept.headers.get('x-request-id');
  t.regex(generated ?? '', /^[0-9a-f-]{36}$/, 'errors carry an id too');
  const patch = await send('/api/v1/public/forms/nope/responses/rsp_x', {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-resume-token': resumeToken, 'x-request-id': 'bad id with "quotes" {}' },
    body: '{}',
  });
  t.is(patch.status, 404);
  t.not(patch.headers.get('x-request-id'), 'bad id with "quotes" {}', 'an insane client id is replaced');
  const unknown = await send(`/no/such/${inviteToken}`);
  t.is(unknown.status, 404);
  t.truthy(unknown.headers.get('x-request-id'));

  await new Promise((r) => setImmediate(r));
  const requests = parsed(lines).filter((l) => l.msg === 'request');
  const byId = (id: string | null) => requests.find((l) => l.request_id === id);
  t.like(byId('req-abc.123'), { method: 'GET', route: '/api/v1/forms', status: 200, level: 30 });
  t.is(typeof byId('req-abc.123')?.ms, 'number');
  t.like(byId(generated), { method: 'POST', route: '/api/v1/invitations/:token/accept' });
  t.like(byId(patch.headers.get('x-request-id')), { method: 'PATCH', route: '/api/v1/public/forms/:slug/responses/:responseId', status: 404 });
  t.like(byId(unknown.headers.get('x-request-id')), { route: '(unmatched)', status: 404 });
  const all = lines.join('');
  for (const s of secrets) t.false(all.includes(s), `${s.slice(0, 8)}... never logged`);
});

test('FORMLOOM_LOG_LEVEL=warn drops the request lines; a bad level is refused naming the variable', async (t) => {
  const { app, lines, stop } = await startCaptured({ FORMLOOM_LOG_LEVEL: 'warn' });
  t.teardown(stop);
  t.is((await fetch(`${app.url}/healthz`)).status, 200);
  t.deepEqual(parsed(lines).filter((l) => l.msg === 'request'), []);
  await t.throwsAsync(startSelfHosted({ PORT: '0', FORMLOOM_LOG_LEVEL: 'loud' }), { message: /^FORMLOOM_LOG_LEVEL: expected one of fatal, error/ });
});

for (const kind of ['sqlite', 'postgres'] as const) test(`[${kind}] /healthz is 200 while alive; /readyz is 200 with the database up and 503 with a reason once it is closed`, async (t) => {
  const db = await createTestDatabase(kind);
  const { app, stop } = await startCaptured({ FORMLOOM_LOG_LEVEL: 'silent', FORMLOOM_DATABASE_URL: db.url });
  t.teardown(async () => (await stop(), await db.close()));
  const get = async (path: string) => {
    const r = await fetch(`${app.url}${path}`);
    return [r.status, await r.json()];
  };
  t.deepEqual(await get('/healthz'), [200, { status: 'ok' }]);
  t.deepEqual(await get('/readyz'), [200, { status: 'ready' }]);
  // The database goes away under the running app (the storage the instance was built on, closed).
  await (app.formloom.storage as unknown as { close(): Promise<void> }).close();
  t.deepEqual(await get('/readyz'), [503, { status: 'not_ready', reason: 'database closed' }]);
  t.deepEqual(await get('/healthz'), [200, { status: 'ok' }], 'the process is still alive');
});
