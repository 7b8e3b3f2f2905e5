import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import { downServer, startAppProcess } from './helpers/app-process';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { parseMessage } from '@formloom/mailer-smtp/testing';
import { waitFor } from '@formloom/core/testing';
import { createDataSource } from '@formloom/storage-typeorm';

/**
 * The example plugin queues its mail inside the transaction that stores the response
 * (`inTransaction`, docs/plugins.md): killed with SIGKILL right after the responses were answered, and
 * before any mail could go out, the app loses none of them.
 */

const NOTIFY = resolve(__dirname, '../../../plugin-notify/dist/src/index.js');

test('notify mails queued in the response transaction survive a kill -9 between commit and delivery', async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-plugin-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'formloom.config.mjs');
  writeFileSync(config, `import { notifyPlugin } from ${JSON.stringify(NOTIFY)};\nexport default { plugins: [notifyPlugin()] };\n`);
  const base = {
    ...process.env,
    PORT: '0',
    FORMLOOM_CONFIG: config,
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
  };
  const smtpDown = await downServer();
  t.teardown(() => smtpDown.close());
  const down = { ...base, FORMLOOM_SMTP_URL: `smtp://127.0.0.1:${smtpDown.port}` };
  // The file comes migrated (a copy of the test template): what is checked is the restart, not a new file's migrations.
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, base)).stdout);
  await cli('user', 'create', '--email', 'owner@example.com');
  const { api_key } = await cli('key', 'create', '--user', 'owner@example.com');

  let app = await startAppProcess(down);
  t.teardown(() => app.child.kill('SIGKILL'));
  const post = (path: string, body: unknown, key?: string) =>
    fetch(`${app.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const form = (await post('/forms', { title: 'Crash', published: true, questions: [{ type: 'short_text', title: 'Name' }] }, api_key)).body;
  const answers = [{ question_id: form.questions[0].id, value: 'Ada' }];
  const sent = await Promise.all(Array.from({ length: 12 }, () => post(`/public/forms/${form.slug}/responses`, { answers })));
  t.true(sent.every((r) => r.status === 201));
  // Killed the moment the last response was answered: no clean-up, and the mail server was never reachable.
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  t.deepEqual(readdirSync(dir).filter((n) => n === 'outbox'), [], 'nothing was delivered before the kill');

  // Every mail is in the outbox, unsent: leased to the killed worker (a lease of 60 s) or due for its retry
  // after the failed first attempt (10 s). The test moves that time on in the database rather than waiting
  // for it: what it checks is that none is lost and none sent twice, not how long a lease lasts.
  const db = createDataSource(base.FORMLOOM_DATABASE_URL);
  await db.initialize();
  try {
    const rows: Array<{ n: number }> = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'notify.mail' AND status = 'pending'`);
    t.is(Number(rows[0]!.n), sent.length, 'one pending mail per response');
    const past = new Date(Date.now() - 1000).toISOString();
    await db.query(`UPDATE outbox SET locked_until = CASE WHEN locked_until IS NULL THEN NULL ELSE ? END, next_attempt_at = ? WHERE status = 'pending'`, [past, past]);
  } finally {
    await db.destroy();
  }

  // Restarted with the file outbox as the mailer: every queued mail goes out, once.
  app = await startAppProcess(base);
  const outbox = join(dir, 'outbox');
  const mails = () => {
    try {
      return readdirSync(outbox).filter((n) => n.endsWith('.eml')).map((n) => parseMessage(readFileSync(join(outbox, n))));
    } catch {
      return [];
    }
  };
  await waitFor(() => mails().length >= sent.length, { timeoutMs: 90_000, intervalMs: 200 }).catch(() => undefined);
  const ids = mails().map((m) => /\((rsp_[^)]+)\)/.exec(m.text)?.[1]);
  t.deepEqual([...ids].sort(), sent.map((r) => r.body.id as string).sort(), 'one mail per response, none lost');
});
