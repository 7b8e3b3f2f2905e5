import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { createFetchTransport, createFormloomRouter } from '../../src';

/*
 * On PostgreSQL a new outbox item wakes the workers of the other instances (NOTIFY at commit, LISTEN in
 * each worker: docs/responses-and-webhooks.md). Instance A's worker polls every ten minutes here, and
 * instance B runs no worker: B's submissions can reach the receiver within the test's time only through
 * the wake-up, and each arrives exactly once.
 */
test('postgres: a webhook enqueued on one instance is sent by another instance\'s worker without waiting for its poll', async (t) => {
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  // Instance A's storage, watched: when its worker's first poll has ended and its LISTEN is in place.
  const watch = { polls: [] as number[], listening: false };
  const outbox = new Proxy(db.storage.outbox, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === 'claim') return async (...args: unknown[]) => {
        const items = await value.apply(target, args);
        watch.polls.push(items.length);
        return items;
      };
      if (key === 'listen') return async (...args: unknown[]) => {
        const stop = await value.apply(target, args);
        watch.listening = true;
        return stop;
      };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const watched = new Proxy(db.storage, {
    get(target, key) {
      const value = key === 'outbox' ? outbox : Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const storages = [watched, createTypeormStorage(second)];
  const [a, b] = storages.map((storage) =>
    createFormloom({ storage, webhookTransport: createFetchTransport({ allowPrivate: true }), config: { secretKey: 'shared-key' } }),
  );
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom: b!, rateLimits: false }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
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
    const user = await b!.accounts.createUser({ email: `wake${Date.now()}@example.com`, plan: 'pro' });
    const { api_key } = await b!.accounts.createKey(user.id);
    const created = await fetch(`${url}/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Wake', published: true, webhook_url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`, questions: [{ type: 'short_text', title: 'Name' }] }),
    }).then((r) => r.json() as Promise<any>);
    a!.worker.start({ pollMs: 600_000 });
    // Its first poll runs at start: it must have found nothing, and the LISTEN be in place, before anything
    // is enqueued; a slow first poll would otherwise deliver by itself and prove nothing about the wake-up.
    await waitFor(() => watch.polls.length >= 1 && watch.listening, { what: "instance A's first poll and LISTEN" });
    t.deepEqual(watch.polls, [0], 'the first poll found nothing');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/public/forms/${created.slug}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ question_id: created.questions[0].id, value: `n${i}` }] }),
      });
      t.is(res.status, 201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    // Every item settled: none can be sent again, so the counts below are final (no late duplicate to miss).
    await waitFor(async () => received.size >= ids.length && Number((await db.raw(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'webhook' AND status = 'pending'`))[0].n) === 0, {
      what: 'every webhook delivered and settled',
    }).catch(() => undefined);
    t.deepEqual([...received.keys()].sort(), [...ids].sort(), 'every submission delivered by the other instance');
    t.true([...received.values()].every((n) => n === 1), 'exactly once');
    t.true(watch.polls.length > 1, "the items were claimed by wake-ups after the first poll (its next is ten minutes away)");
  } finally {
    await a!.worker.stop();
    await new Promise((r) => server.close(r));
    await new Promise((r) => hook.close(r));
    await storages[1]!.close();
    await db.close();
  }
});
