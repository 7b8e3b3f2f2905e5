import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@formloom/core/testing';
import test from 'ava';
import { startEmbedExample } from '../src';

/*
 * An integration from the embedded host (docs/integrations.md): the host registers the Slack plugin and runs
 * the outbox worker; its signed-in user adds a Slack integration through the mounted API, and each new response
 * reaches the channel's incoming webhook (a local stand-in answering as Slack does).
 */
test('a host user adds a Slack integration and each response is posted to the channel', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-embed-int-'));
  const app = await startEmbedExample({ PORT: '0', FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'host.sqlite')}`, FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1' });
  const messages: any[] = [];
  const slack: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => (messages.push(JSON.parse(raw)), res.end('ok')));
  });
  await new Promise<void>((r) => slack.listen(0, '127.0.0.1', () => r()));
  t.teardown(async () => {
    await new Promise((r) => slack.close(r));
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, path: string, body?: unknown, session: string | null = 'ada-session') => {
    const res = await fetch(`${app.url}/api/v1${path}`, {
      method,
      headers: { ...(session ? { 'x-session-token': session } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const form = (await call('POST', '/forms', { title: 'Team lunch', published: true, questions: [{ type: 'short_text', title: 'Favourite dish?' }] })).body;
  const added = await call('POST', `/forms/${form.id}/integrations`, { type: 'slack', config: { webhook_url: `http://127.0.0.1:${(slack.address() as AddressInfo).port}/services/T0/B0/x` } });
  t.is(added.status, 201);
  const tested = await call('POST', `/forms/${form.id}/integrations/${added.body.id}/test`);
  t.like(tested.body, { ok: true, response_code: 200, response_excerpt: 'ok' });
  await call('POST', `/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: 'Dumplings' }] }, null);
  await waitFor(() => messages.length === 2, { timeoutMs: 30_000, intervalMs: 50 });
  t.is(messages[1].text, 'New response to Team lunch');
  t.true(JSON.stringify(messages[1].blocks).includes('Dumplings'));
});
