import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFetchTransport, createFormloomRouter } from '../src';

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

    const deadline = Date.now() + 15_000;
    while (received.size < 61 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    t.is(received.size, 61);
    t.true([...received.values()].every((n) => n === 1), 'no delivery sent twice');
    const rows = await db.raw(`SELECT COUNT(*) AS n FROM webhook_delivery_attempts`);
    t.is(Number(rows[0].n), 61);
  } finally {
    for (const f of instances) await f.worker.stop();
    for (const s of servers) await new Promise((r) => s.close(r));
    await new Promise((r) => hook.close(r));
    await storages[1]!.close();
    await db.close();
  }
});
