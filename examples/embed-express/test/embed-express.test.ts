import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { createFormloom, type Formloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createHostApp, HostSessions } from '../src';

type Ctx = { url: string; formloom: Formloom; close(): Promise<void> };
const test = anyTest as TestFn<Ctx>;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-embed-'));
  const dataSource = createDataSource(`sqlite:${join(dir, 'host.sqlite')}`);
  const storage = createTypeormStorage(dataSource);
  await runMigrations(dataSource);
  const formloom = createFormloom({ storage });
  const sessions = new HostSessions(
    new Map([
      ['s-ada', { email: 'ada@example.com', name: 'Ada Lovelace' }],
      ['s-grace', { email: 'grace@example.com', name: 'Grace Hopper' }],
    ]),
  );
  const server: Server = createServer(createHostApp({ formloom, sessions }));
  await new Promise<void>((ok) => server.listen(0, ok));
  t.context = {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    formloom,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

test.after.always(async (t) => {
  await t.context.close?.();
});

async function call(t: { context: Ctx }, method: string, path: string, opts: { session?: string; json?: unknown; text?: string; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.session) headers['x-session-token'] = opts.session;
  let body: string | undefined;
  if (opts.json !== undefined) [body, headers['content-type']] = [JSON.stringify(opts.json), 'application/json'];
  if (opts.text !== undefined) [body, headers['content-type']] = [opts.text, opts.type ?? 'text/plain'];
  const res = await fetch(`${t.context.url}${path}`, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const raw = await res.text();
  return { status: res.status, body: /^[[{]/.test(raw) ? JSON.parse(raw) : raw };
}

test('the host routes work beside the mount', async (t) => {
  const home = await call(t, 'GET', '/');
  t.is(home.status, 200);
  t.regex(home.body, /Host app/);
  t.deepEqual(await call(t, 'GET', '/me', { session: 's-ada' }), { status: 200, body: { email: 'ada@example.com', name: 'Ada Lovelace' } });
  t.deepEqual(await call(t, 'GET', '/me'), { status: 401, body: { message: 'Please sign in' } });
});

test("the host's own body parsing is untouched: a JSON body reaches its text route verbatim", async (t) => {
  const raw = '{"looks": "like json", "n": 1}';
  const res = await call(t, 'POST', '/notes', { session: 's-ada', text: raw, type: 'application/json' });
  t.is(res.status, 201);
  t.is(res.body.note, raw);
});

test('Formloom routes run as the host user, who becomes a Formloom user on first sight', async (t) => {
  const created = await call(t, 'POST', '/api/v1/forms', {
    session: 's-grace',
    json: { title: 'Team lunch', questions: [{ type: 'short_text', title: 'Favourite dish?' }] },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const user = await t.context.formloom.accounts.findUser('grace@example.com');
  t.like(user, { first_name: 'Grace', last_name: 'Hopper', email_verified: true });
  t.is(created.body.owner_id ?? user.id, user.id);

  const list = await call(t, 'GET', '/api/v1/forms', { session: 's-grace' });
  t.is(list.status, 200);
  t.deepEqual(list.body.forms.map((f: { id: string }) => f.id), [created.body.id]);

  // Another host user does not see Grace's form.
  const other = await call(t, 'GET', `/api/v1/forms/${created.body.id}`, { session: 's-ada' });
  t.true(other.status === 403 || other.status === 404, String(other.status));
});

test('first requests racing for the same new user map to one Formloom user', async (t) => {
  const results = await Promise.all([1, 2, 3, 4].map(() => call(t, 'GET', '/api/v1/forms', { session: 's-ada' })));
  t.deepEqual(results.map((r) => r.status), [200, 200, 200, 200]);
  t.truthy(await t.context.formloom.accounts.findUser('ada@example.com'));
});

test('without a host session Formloom answers the structured 401; API keys are not accepted in its place', async (t) => {
  for (const res of [
    await call(t, 'GET', '/api/v1/forms'),
    await call(t, 'POST', '/api/v1/forms', { json: { title: 'x' } }),
    await call(t, 'GET', '/api/v1/forms', { session: 'expired-session' }),
  ]) {
    t.is(res.status, 401);
    t.deepEqual(Object.keys(res.body.error).slice(0, 3), ['code', 'message', 'status']);
    t.like(res.body, { error: { code: 'UNAUTHORIZED', status: 401 } });
  }
  const key = await t.context.formloom.accounts.createKey((await t.context.formloom.accounts.createUser({ email: 'keyed@example.com' })).id);
  const res = await fetch(`${t.context.url}/api/v1/forms`, { headers: { authorization: `Bearer ${key.api_key}` } });
  t.is(res.status, 401);
});
