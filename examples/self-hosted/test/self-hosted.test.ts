import { type Dirent, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { runCli } from '@formloom/cli';
import { readSelfHostedConfig, SERVER_TIMEOUTS, startSelfHosted, type SelfHosted } from '../src';

type Ctx = { app: SelfHosted; key: string; dir: string };
const test = anyTest as TestFn<Ctx>;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-self-hosted-'));
  const env = { PORT: '0', FORMLOOM_DATA_DIR: join(dir, 'data'), FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'data', 'formloom.sqlite')}` };
  const app = await startSelfHosted(env);
  // The operator's path: the CLI against the database of the running app.
  const cli = async (...argv: string[]) => {
    const r = await runCli(argv, env);
    if (r.code !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
  await cli('user', 'create', '--email', 'ada@example.com', '--plan', 'pro');
  const { api_key } = await cli('key', 'create', '--user', 'ada@example.com');
  t.context = { app, key: api_key!, dir };
});

test.after.always(async (t) => {
  await t.context.app?.close();
  rmSync(t.context.dir, { recursive: true, force: true });
});

async function call(t: { context: Ctx }, method: string, path: string, body?: unknown, key: string | null = t.context.key) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.context.app.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    // A stuck request fails its own test instead of the whole file's time-out.
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text.startsWith('{') ? JSON.parse(text) : text };
}

test('listens on an ephemeral port, made its data dir, and answers /healthz', async (t) => {
  t.not(t.context.app.port, 0);
  t.is(t.context.app.url, `http://127.0.0.1:${t.context.app.port}`);
  t.is(t.context.app.publicUrl, t.context.app.url);
  t.true(existsSync(join(t.context.dir, 'data')));
  const health = await call(t, 'GET', '/healthz', undefined, null);
  t.deepEqual([health.status, health.body], [200, { status: 'ok' }]);
});

test('with PORT=0 and no FORMLOOM_PUBLIC_URL, links carry the port the system gave (docs/configuration.md)', async (t) => {
  const created = await call(t, 'POST', '/api/v1/forms', { title: 'Links', published: true, questions: [{ type: 'file_upload', title: 'CV' }] });
  t.is(created.status, 201, JSON.stringify(created.body));
  const body = new FormData();
  body.append('file', new Blob(['hello'], { type: 'text/plain' }), 'note.txt');
  const qs = `?question_id=${created.body.questions[0].id}`;
  const up = await fetch(`${t.context.app.url}/api/v1/public/forms/${created.body.slug}/uploads${qs}`, { method: 'POST', body });
  t.is(up.status, 201);
  const { url } = (await up.json()) as { url: string };
  t.true(url.startsWith(`${t.context.app.url}/api/v1/public/uploads/${created.body.id}/`), url);
  // The link works for the form's owner (docs/security.md "Uploaded files"), not for anyone who has it.
  const file = await fetch(url, { headers: { authorization: `Bearer ${t.context.key}` } });
  t.is(file.status, 200);
  t.is(await file.text(), 'hello');
  t.is((await fetch(url)).status, 401);
});

test('the HTTP server bounds how long a client may take to send its headers and its request', (t) => {
  const { server } = t.context.app;
  t.is(server.headersTimeout, SERVER_TIMEOUTS.headersTimeout);
  t.is(server.requestTimeout, SERVER_TIMEOUTS.requestTimeout);
  t.is(server.keepAliveTimeout, SERVER_TIMEOUTS.keepAliveTimeout);
  // Tighter than Node's own defaults (60 s for headers, 5 minutes for the request).
  t.true(server.headersTimeout < 60_000 && server.requestTimeout < 300_000);
});

test('a form goes from create to publish to the public endpoint and page', async (t) => {
  const created = await call(t, 'POST', '/api/v1/forms', {
    title: 'Customer feedback',
    questions: [
      { type: 'short_text', title: 'What is your name?', required: true },
      { type: 'rating', title: 'How was your visit?', properties: { steps: 5, shape: 'star' } },
    ],
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const form = created.body;
  t.is(form.questions.length, 2);
  t.false(form.published);

  const got = await call(t, 'GET', `/api/v1/forms/${form.id}`);
  t.is(got.status, 200);
  t.is(got.body.title, 'Customer feedback');
  t.deepEqual(got.body.questions.map((q: { title: string }) => q.title), ['What is your name?', 'How was your visit?']);

  t.is((await call(t, 'GET', `/api/v1/public/forms/${form.slug}`, undefined, null)).status, 404);
  const published = await call(t, 'POST', `/api/v1/forms/${form.id}/publish`);
  t.is(published.status, 200, JSON.stringify(published.body));
  t.is(published.body.version.version, 1);

  const versions = await call(t, 'GET', `/api/v1/forms/${form.id}/versions`);
  t.is(versions.status, 200);
  t.is(versions.body.versions.length, 1);

  const pub = await call(t, 'GET', `/api/v1/public/forms/${form.slug}`, undefined, null);
  t.is(pub.status, 200);
  t.like(pub.body, { form_id: form.id, version: 1, title: 'Customer feedback' });

  const page = await call(t, 'GET', `/f/${form.slug}`, undefined, null);
  t.is(page.status, 200);
  t.regex(page.type, /text\/html/);
  t.regex(page.body, /Customer feedback/);
});

test('requests without a valid key get the structured 401', async (t) => {
  for (const key of [null, 'fl_nope']) {
    const res = await call(t, 'GET', '/api/v1/forms', undefined, key);
    t.is(res.status, 401);
    t.like(res.body, { error: { code: 'UNAUTHORIZED', status: 401 } });
  }
});

// Serial: the CLI writes the app's SQLite file from another process, and on a loaded machine the other
// tests' requests could wait past the busy timeout for it (the CLI is not what they test).
test.serial('a revoked key gets 401', async (t) => {
  const env = { FORMLOOM_DATABASE_URL: `sqlite:${join(t.context.dir, 'data', 'formloom.sqlite')}` };
  const key = JSON.parse((await runCli(['key', 'create', '--user', 'ada@example.com'], env)).stdout);
  t.is((await call(t, 'GET', '/api/v1/forms', undefined, key.api_key)).status, 200);
  t.is((await runCli(['key', 'revoke', '--key', key.key_id], env)).code, 0);
  t.is((await call(t, 'GET', '/api/v1/forms', undefined, key.api_key)).status, 401);
});

test('the data dir is owner-only (0700); the database, its journal files, the secret key and uploads are 0600', async (t) => {
  const data = join(t.context.dir, 'data');
  const mode = (p: string) => statSync(p).mode & 0o777;
  t.is(mode(data), 0o700);
  const created = await call(t, 'POST', '/api/v1/forms', { title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'CV' }] });
  t.is(created.status, 201, JSON.stringify(created.body));
  const body = new FormData();
  body.append('file', new Blob(['hello'], { type: 'text/plain' }), 'note.txt');
  const qs = `?question_id=${created.body.questions[0].id}`;
  const up = await fetch(`${t.context.app.url}/api/v1/public/forms/${created.body.slug}/uploads${qs}`, { method: 'POST', body });
  t.is(up.status, 201);
  const db = join(data, 'formloom.sqlite');
  t.is(mode(db), 0o600);
  for (const f of [`${db}-wal`, `${db}-shm`, `${db}-journal`]) if (existsSync(f)) t.is(mode(f), 0o600, f);
  t.is(mode(join(data, 'secret.key')), 0o600);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e: Dirent) => {
      const p = join(dir, e.name);
      return e.isDirectory() ? [p, ...walk(p)] : [p];
    });
  const blobs = walk(join(data, 'blobs'));
  t.true(blobs.some((p) => p.endsWith('note.txt')));
  for (const p of blobs) t.is(mode(p), statSync(p).isDirectory() ? 0o700 : 0o600, p);
});

test('the upload quota, the outbox retention and the file links\' lifetime are read from the environment', (t) => {
  const defaults = readSelfHostedConfig({});
  t.is(defaults.uploadQuotaBytes, 1024 * 1024 * 1024);
  t.is(defaults.outboxRetentionMs, 7 * 24 * 3600_000);
  t.is(defaults.fileLinkTtlMs, 7 * 24 * 3600_000);
  const set = readSelfHostedConfig({ FORMLOOM_UPLOAD_QUOTA_MB: '5', FORMLOOM_OUTBOX_RETENTION_DAYS: '0.5', FORMLOOM_FILE_LINK_DAYS: '2' });
  t.is(set.uploadQuotaBytes, 5 * 1024 * 1024);
  t.is(set.outboxRetentionMs, 12 * 3600_000);
  t.is(set.fileLinkTtlMs, 2 * 24 * 3600_000);
  t.throws(() => readSelfHostedConfig({ FORMLOOM_FILE_LINK_DAYS: '-1' }), { message: /FORMLOOM_FILE_LINK_DAYS/ });
  t.throws(() => readSelfHostedConfig({ FORMLOOM_UPLOAD_QUOTA_MB: 'lots' }), { message: /FORMLOOM_UPLOAD_QUOTA_MB/ });
  t.throws(() => readSelfHostedConfig({ FORMLOOM_OUTBOX_RETENTION_DAYS: '0' }), { message: /FORMLOOM_OUTBOX_RETENTION_DAYS/ });
});
