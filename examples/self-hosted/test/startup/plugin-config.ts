import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '@formloom/core/testing';
import test, { type ExecutionContext } from 'ava';
import { runCli } from '@formloom/cli';
import { parseMessage } from '@formloom/mailer-smtp/testing';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { startSelfHosted } from '../../src';

// The example plugin, as an operator would reference its built file from formloom.config.mjs.
const NOTIFY = resolve(__dirname, '../../../../plugin-notify/dist/src/index.js');
const MAIN = resolve(__dirname, '../../src/main.js');

function workspace(t: ExecutionContext, config: string) {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-plugins-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'formloom.config.mjs');
  writeFileSync(path, config);
  const dataDir = join(dir, 'data');
  const env = { PORT: '0', FORMLOOM_CONFIG: path, FORMLOOM_DATA_DIR: dataDir, FORMLOOM_DATABASE_URL: `sqlite:${join(dataDir, 'formloom.sqlite')}` };
  return { dir, path, dataDir, env };
}

/** The data folder with its database migrated already (a copy): these tests are about the plugins, not a new file's migrations. */
async function migrated(dataDir: string) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  await migratedSqliteFile(join(dataDir, 'formloom.sqlite'));
}

const notifyConfig = `import { notifyPlugin } from ${JSON.stringify(NOTIFY)};
export default { plugins: [notifyPlugin({ subject: 'New answer: {title}' })] };
`;

/** The .eml files of the file outbox, waiting (bounded) for the worker to write `count` of them. */
async function outboxMails(dataDir: string, count: number) {
  const dir = join(dataDir, 'outbox');
  const names = await waitFor(
    () => {
      try {
        const found = readdirSync(dir).filter((n) => n.endsWith('.eml'));
        return found.length >= count && found;
      } catch {
        return false; // not created yet
      }
    },
    { intervalMs: 50 },
  ).catch(() => [] as string[]);
  return names.map((n) => parseMessage(readFileSync(join(dir, n))));
}

test('a plugin listed in formloom.config.mjs serves its route and mails the owner on response.submitted', async (t) => {
  const { env, dataDir } = workspace(t, notifyConfig);
  await migrated(dataDir);
  const app = await startSelfHosted(env);
  t.teardown(() => app.close());
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout) as Record<string, string>;
  await cli('user', 'create', '--email', 'owner@example.com');
  const { api_key } = await cli('key', 'create', '--user', 'owner@example.com');
  const call = async (method: string, path: string, body?: unknown, key: string | null = api_key!) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  t.true(app.formloom.plugins.some((p) => p.name === 'notify' && p.version === '0.1.0'), 'the config file\'s plugin runs');
  const before = await call('GET', '/api/v1/notify/status');
  t.is(before.status, 200);
  t.deepEqual(before.body, { plugin: 'notify', version: '0.1.0', queued: 0, sent: 0, last_error: null });
  t.is((await call('GET', '/api/v1/notify/status', undefined, null)).status, 401);
  const openapi = await call('GET', '/api/v1/openapi.json', undefined, null);
  t.like(openapi.body.paths['/notify/status'].get, { tags: ['Notify'], security: [{ apiKey: [] }] });

  const form = (await call('POST', '/api/v1/forms', { title: 'Feedback', questions: [{ type: 'short_text', title: 'Name?' }] })).body;
  t.is((await call('POST', `/api/v1/forms/${form.id}/publish`)).status, 200);
  const answer = { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] };
  const submitted = await call('POST', `/api/v1/public/forms/${form.slug}/responses`, answer, null);
  t.is(submitted.status, 201);

  const mails = await outboxMails(dataDir, 1);
  t.is(mails.length, 1);
  t.is(mails[0]!.to, 'owner@example.com');
  t.is(mails[0]!.subject, 'New answer: Feedback');
  t.true(mails[0]!.text.includes(submitted.body.id));
  t.like((await call('GET', '/api/v1/notify/status')).body, { queued: 1, sent: 1, last_error: null });
});

test('without a config file the app starts with the built-in areas, the official integrations and its backups', async (t) => {
  const { env, dataDir } = workspace(t, '');
  const { FORMLOOM_CONFIG: _unused, ...defaults } = env;
  await migrated(dataDir);
  const app = await startSelfHosted(defaults);
  t.teardown(() => app.close());
  t.deepEqual(app.formloom.plugins.map((p) => p.name), [
    ...['accounts', 'forms', 'responses', 'webhooks', 'teams', 'signing', 'outbox', 'voice', 'sessions', 'notifications', 'payments', 'integrations', 'booking', 'steps'],
    ...['slack', 'google-sheets', 'notion', 'airtable', 'rest-hooks'],
    'backups',
  ]);
  t.is((await fetch(`${app.url}/api/v1/notify/status`)).status, 404);
});

const refused: Array<[string, string, RegExp]> = [
  ['a syntax error', 'export default { plugins: [ }', /formloom\.config\.mjs: could not be loaded/],
  ['no default export', 'export const plugins = [];', /the default export must be an object/],
  ['plugins that are not a list', 'export default { plugins: {} };', /`plugins` must be an array/],
  ['an unknown setting', 'export default { plugins: [], plugin: [] };', /unknown setting plugin/],
  ['a plugin without a name', 'export default { plugins: [{ version: "1" }] };', /plugin #1 needs a lower-case `name`/],
  [
    'two plugins with one name',
    `import { notifyPlugin } from ${JSON.stringify(NOTIFY)};\nexport default { plugins: [notifyPlugin(), notifyPlugin()] };`,
    /Two plugins are named "notify"/,
  ],
  ['a plugin named like a built-in area', 'export default { plugins: [{ name: "forms", version: "1" }] };', /Two plugins are named "forms"/],
  [
    'two adapters for one port',
    `const mailer = { send: async () => ({ id: 'x' }) };
export default { plugins: [{ name: 'a', version: '1', adapters: { mailer } }, { name: 'b', version: '1', adapters: { mailer } }] };`,
    /Two adapters for the mailer port: plugin "a" and plugin "b"/,
  ],
  ['an adapter for something that is not a port', 'export default { plugins: [{ name: "a", version: "1", adapters: { fax: {} } }] };', /"fax", which is not a port/],
];
for (const [what, config, message] of refused) {
  test(`a config file with ${what} is a clear start-up error`, async (t) => {
    const { env, path } = workspace(t, config);
    const err = await t.throwsAsync(startSelfHosted(env));
    t.regex(err!.message, message);
    t.true(err!.message.startsWith(path), err!.message);
  });
}

test('FORMLOOM_CONFIG naming a missing file is a start-up error, and main exits 1 with one line', async (t) => {
  const { env, dir } = workspace(t, '');
  const missing = join(dir, 'nope.mjs');
  await t.throwsAsync(startSelfHosted({ ...env, FORMLOOM_CONFIG: missing }), { message: `${missing}: FORMLOOM_CONFIG names a file that does not exist` });
  mkdirSync(join(dir, 'cwd'));
  const child = spawn(process.execPath, [MAIN], { cwd: join(dir, 'cwd'), env: { ...process.env, ...env, FORMLOOM_CONFIG: missing }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  t.is(code, 1);
  t.is(stderr.trim(), `Formloom could not start: ${missing}: FORMLOOM_CONFIG names a file that does not exist`);
});
