import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { createDataSource } from '@formloom/storage-typeorm';
import { startAppProcess } from './helpers/app-process';

/*
 * Deliveries that may have been sent (docs/plugins.md, docs/integrations.md "Exactly once or at least once"):
 * the app is killed with SIGKILL after its requests reached the services and before it stored their
 * outcomes. Restarted, it sends them again as "may have been sent": Google Chat, given the message's own id,
 * refuses the repeat (409 ALREADY_EXISTS) and keeps one message per response; Slack's webhook takes no key,
 * so it gets each message twice, and the log says so in plain words.
 */

const NOTE = 'Sent again after a restart: it may appear twice';

/** One local server as both services' webhooks: `/gchat` keeps a message per `messageId`, `/slack` every message. */
async function chatServices() {
  const gchat = new Map<string, string>();
  const slack: string[] = [];
  /** While set, a request is kept and never answered: the app sent it, the service has it, no outcome came back. */
  let hold = true;
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const response = /rsp_[A-Za-z0-9_-]+/.exec(raw)?.[0] ?? '?';
      let answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (url.pathname === '/gchat') {
        const id = url.searchParams.get('messageId') ?? '';
        if (gchat.has(id)) {
          const body = JSON.stringify({ error: { code: 409, message: 'Message already exists.', status: 'ALREADY_EXISTS' } });
          return res.writeHead(409, { 'content-type': 'application/json' }).end(body);
        }
        gchat.set(id, response);
        answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: `spaces/AAA/messages/${id}` }));
      } else {
        slack.push(response);
      }
      if (hold) held.push(res);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    gchat,
    slack,
    release: () => (hold = false),
    url: (name: string) => `${base}/${name}`,
    close: () => {
      held.forEach((r) => r.destroy());
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

test('a delivery sent when the app was killed is sent again as "may have been sent": once in Google Chat, flagged for Slack', async (t) => {
  t.timeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-integration-crash-'));
  const services = await chatServices();
  t.teardown(async () => {
    await services.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = {
    ...process.env,
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
    // The services listen on loopback: allowed as an operator would for a private network.
    FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
  };
  // The file comes migrated (a copy of the test template): what is checked is the restart, not a new file's migrations.
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
  await cli('user', 'create', '--email', 'owner@example.com');
  const { api_key } = await cli('key', 'create', '--user', 'owner@example.com');

  let app = await startAppProcess(env);
  t.teardown(() => app.child.kill('SIGKILL'));
  const call = (method: string, path: string, body?: unknown, key: string | null = api_key) =>
    fetch(`${app.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const form = (await call('POST', '/forms', { title: 'Crash', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
  const gchat = (await call('POST', `/forms/${form.id}/integrations`, { type: 'google-chat', config: { webhook_url: services.url('gchat') } })).body;
  const slack = (await call('POST', `/forms/${form.id}/integrations`, { type: 'slack', config: { webhook_url: services.url('slack') } })).body;
  t.truthy(gchat.id && slack.id);
  // Three responses at once: within the 4 deliveries a destination may have under way, so all are sent
  // together, well within the 10 s a request may take before the app gives up on it.
  const sent = await Promise.all(['Ada', 'Grace', 'Edsger'].map((name) => call('POST', `/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: name }] }, null)));
  t.true(sent.every((r) => r.status === 201));
  const ids = sent.map((r) => r.body.id as string).sort();
  // Every message reached its service, which holds its answer: the app is killed before it hears back.
  await waitFor(() => services.gchat.size === 3 && services.slack.length === 3, { timeoutMs: 60_000, intervalMs: 50 });
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  services.release();

  // The killed worker's leases (60 s) are moved into the past rather than waited for: what is checked is
  // what a retry does, not how long a lease lasts.
  const db = createDataSource(env.FORMLOOM_DATABASE_URL);
  await db.initialize();
  try {
    const rows: Array<{ n: number }> = await db.query(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'integrations.delivery' AND status = 'pending'`);
    t.is(Number(rows[0]!.n), 6, 'no outcome was stored before the kill');
    const past = new Date(Date.now() - 1000).toISOString();
    await db.query(`UPDATE outbox SET locked_until = CASE WHEN locked_until IS NULL THEN NULL ELSE ? END, next_attempt_at = ? WHERE status = 'pending'`, [past, past]);
  } finally {
    await db.destroy();
  }

  app = await startAppProcess(env);
  const log = async (integration: string) => (await call('GET', `/forms/${form.id}/integrations/${integration}/deliveries`)).body.deliveries as any[];
  const settled = async (integration: string) => {
    const list = await log(integration);
    return list.length === 3 && list.every((d) => d.status === 'delivered') ? list : false;
  };
  const gchatLog = await waitFor(() => settled(gchat.id), { timeoutMs: 90_000, intervalMs: 200 });
  const slackLog = await waitFor(() => settled(slack.id), { timeoutMs: 90_000, intervalMs: 200 });

  t.deepEqual([...services.gchat.values()].sort(), ids, 'Google Chat: one message per response');
  t.true(gchatLog.every((d) => d.attempts === 1 && d.response_code === 409 && d.error === null), 'the repeat was recognised: no note');
  t.deepEqual([...services.slack].sort(), [...ids, ...ids].sort(), 'Slack: each message twice (its webhook takes no key)');
  t.true(slackLog.every((d) => d.attempts === 1 && d.response_code === 200 && d.error === NOTE), 'the log says it may appear twice');
});
