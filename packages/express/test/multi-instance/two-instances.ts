import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFetchTransport, createFormloomRouter } from '../../src';
import { waitFor } from '@formloom/core/testing';

/** Two app instances over one PostgreSQL schema, as when several app servers share a database. */
test('two instances on one PostgreSQL: concurrent ingest, and every delivery sent exactly once', async (t) => {
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) =>
    createFormloom({ storage, webhookTransport: createFetchTransport({ allowPrivate: true }), config: { secretKey: 'shared-key' } }),
  );
  const servers = await Promise.all(
    instances.map(
      (formloom) =>
        new Promise<import('node:http').Server>((resolve) => {
          const app = express();
          app.use('/api/v1', createFormloomRouter({ formloom }));
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
          // Longer than any pause under load: a reused keep-alive connection is never closed under a request.
          s.keepAliveTimeout = 60_000;
        }),
    ),
  );
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1`);
  const received = new Map<string, number>();
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const id = JSON.parse(body).response.id as string;
      received.set(id, (received.get(id) ?? 0) + 1);
      res.end();
    });
  });
  hook.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
  try {
    const user = await instances[0]!.accounts.createUser({ email: `multi${Date.now()}@example.com`, plan: 'pro' });
    const { api_key } = await instances[0]!.accounts.createKey(user.id);
    const created = await fetch(`${urls[0]}/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Shared',
        published: true,
        limit_one_response: true,
        webhook_url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
        questions: [{ type: 'short_text', title: 'Name' }],
      }),
    }).then((r) => r.json() as Promise<any>);
    t.true(created.published);
    for (const f of instances) f.worker.start({ pollMs: 50 });

    const submit = (i: number, visitor: string) =>
      fetch(`${urls[i % 2]}/public/forms/${created.slug}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ question_id: created.questions[0].id, value: `n${i}` }], visitor_id: visitor }),
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => submit(i, `v${i}`)));
    t.true(statuses.every((s) => s === 201));
    const dupes = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(i, 'same-visitor')));
    t.is(dupes.filter((s) => s === 201).length, 1, 'limit_one_response holds across instances');
    t.is(dupes.filter((s) => s === 409).length, 9);

    // An outcome, not a time: every delivery arrives, however busy the machine (a generous deadline only
    // keeps a broken run from hanging; a failed try is retried with backoff, so allow for retries).
    t.timeout(300_000);
    // Every response arrived and both workers have nothing left to send: whatever arrived is all that will.
    await waitFor(async () => received.size >= 61 && Number((await db.raw(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'webhook' AND status = 'pending'`))[0].n) === 0, {
      timeoutMs: 240_000,
      intervalMs: 100,
      what: 'every delivery sent and settled',
    }).catch(() => undefined);
    t.is(received.size, 61, 'every response delivered');
    t.true([...received.values()].every((n) => n === 1), 'no delivery sent twice');
    const rows = await db.raw(`SELECT COUNT(*) AS n FROM webhook_delivery_attempts`);
    t.is(Number(rows[0].n), 61, 'one attempt recorded per delivery');
  } finally {
    for (const f of instances) await f.worker.stop();
    for (const s of servers) await new Promise((r) => s.close(r));
    await new Promise((r) => hook.close(r));
    await storages[1]!.close();
    await db.close();
  }
});

/** Two app instances over one new PostgreSQL schema; `close` stops both and drops the schema. */
async function twoInstances() {
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) => createFormloom({ storage, config: { secretKey: 'shared-key' } }));
  const servers = await Promise.all(
    instances.map(
      (formloom) =>
        new Promise<import('node:http').Server>((resolve) => {
          const app = express();
          app.use('/api/v1', createFormloomRouter({ formloom }));
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
          // Longer than any pause under load: a reused keep-alive connection is never closed under a request.
          s.keepAliveTimeout = 60_000;
        }),
    ),
  );
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1`);
  return {
    db,
    instances,
    urls,
    async close() {
      for (const s of servers) await new Promise((r) => s.close(r));
      await storages[1]!.close();
      await db.close();
    },
  };
}

/* docs/decisions.md "Form settings": the limit holds exactly across instances, not "passed by a few". */
test('two instances on one PostgreSQL: response_limit admits exactly that many of many concurrent submissions', async (t) => {
  const two = await twoInstances();
  try {
    const user = await two.instances[0]!.accounts.createUser({ email: `limit${Date.now()}@example.com`, plan: 'free' });
    const { api_key } = await two.instances[0]!.accounts.createKey(user.id);
    const auth = { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' };
    const form = await fetch(`${two.urls[0]}/forms`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Limited', published: true, response_limit: 7, questions: [{ type: 'short_text', title: 'Name' }] }),
    }).then((r) => r.json() as Promise<any>);
    const submit = (i: number) =>
      fetch(`${two.urls[i % 2]}/public/forms/${form.slug}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ question_id: form.questions[0].id, value: `n${i}` }] }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => submit(i)));
    t.is(answers.filter((a) => a.status === 201).length, 7);
    const refused = answers.filter((a) => a.status !== 201);
    t.is(refused.length, 33);
    t.true(refused.every((a) => a.status === 409 && a.body.error.reason === 'form_closed'), JSON.stringify(refused.find((a) => a.status !== 409)));
    const stored = await two.db.raw('SELECT COUNT(*) AS n, COUNT(completed_at) AS c FROM responses WHERE form_id = $1', [form.id]);
    t.deepEqual([Number(stored[0].n), Number(stored[0].c)], [7, 7]);
    const read = await fetch(`${two.urls[1]}/forms/${form.id}`, { headers: auth }).then((r) => r.json() as Promise<any>);
    t.is(read.response_count, 7);
    const analytics = await fetch(`${two.urls[1]}/forms/${form.id}/analytics`, { headers: auth }).then((r) => r.json() as Promise<any>);
    t.is(analytics.completed_responses, 7, 'the rollup kept no trace of the refused ones');
  } finally {
    await two.close();
  }
});
