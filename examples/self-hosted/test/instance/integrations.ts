import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@formloom/core/testing';
import test from 'ava';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { startSelfHosted } from '../../src';

/*
 * The official integration plugins run in the self-hosted app without a config file (docs/integrations.md):
 * their types are offered, and a REST Hooks subscription (as Zapier makes one) gets each new response.
 */
test('the official integrations are registered by default; a REST Hooks subscriber gets each response', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-integrations-'));
  // A migrated copy: the test is about the integrations (a new file's migrations: self-hosted.test.ts).
  await migratedSqliteFile(join(dir, 'f.sqlite'));
  // The subscriber listens on loopback: allowed as an operator would for a private network.
  const app = await startSelfHosted({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'f.sqlite')}`, FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1', FORMLOOM_LOG_LEVEL: 'error' });
  const got: any[] = [];
  const target: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => (got.push(JSON.parse(raw)), res.end('{}')));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  t.teardown(async () => {
    await new Promise((r) => target.close(r));
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const user = await app.formloom.accounts.createUser({ email: 'owner@example.com' });
  const { api_key } = await app.formloom.accounts.createKey(user.id);
  const call = async (method: string, path: string, body?: unknown, key: string | null = api_key) => {
    const res = await fetch(`${app.url}/api/v1${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const types = (await call('GET', '/integrations/types')).body.types.map((x: any) => x.type);
  for (const type of ['slack', 'discord', 'microsoft-teams', 'google-chat', 'google-sheets', 'notion', 'airtable', 'rest-hooks']) t.true(types.includes(type), type);

  const form = (await call('POST', '/forms', { title: 'Signups', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
  const sub = await call('POST', `/forms/${form.id}/hooks`, { target_url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/zap`, event: 'response.submitted' });
  t.is(sub.status, 201);
  await call('POST', `/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] }, null);
  await waitFor(() => got.length === 1, { timeoutMs: 30_000, intervalMs: 50 });
  t.like(got[0], { event: 'response.submitted', form_id: form.id, answers: { Name: 'Ada' } });
});
