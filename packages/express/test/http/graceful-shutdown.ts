import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter, gracefulShutdown } from '../../src';

/*
 * docs/embedding.md's host stops with `gracefulShutdown(server, ...).close()`: the drain the self-hosted app
 * runs, bounded (a slow request once kept a host up until the server's 120 s request timeout), and a
 * readiness handler that answers 503 once the drain began.
 */

const listen = (app: express.Express) =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = createServer(app).listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

test('close() lets a request in flight finish, cuts one still running after timeoutMs, then stops the worker and closes the storage', async (t) => {
  const db = await createTestDatabase('sqlite');
  const formloom = createFormloom({ storage: db.storage, config: { secretKey: 'test-secret-key' } });
  formloom.worker.start({ pollMs: 100 });
  const started = { slow: deferred(), gated: deferred() };
  const release = deferred();
  const app = express();
  // A request that never ends (a client trickling its upload, a long export), and one that ends when told.
  app.get('/slow', () => started.slow.resolve());
  app.get('/gated', async (_req, res) => {
    started.gated.resolve();
    await release.promise;
    res.json({ finished: true });
  });
  app.use('/api/v1', createFormloomRouter({ formloom }));
  const { server, url } = await listen(app);
  let storageClosed = false;
  const shutdown = gracefulShutdown(server, {
    formloom,
    close: async () => {
      await db.close();
      storageClosed = true;
    },
  });
  // The probe on a port of its own, as a host's management port: the main server stops accepting at close().
  const admin = express();
  admin.get('/readyz', shutdown.readiness);
  const probe = await listen(admin);
  t.teardown(() => new Promise<void>((r) => probe.server.close(() => r())));
  const ready = async () => {
    const res = await fetch(`${probe.url}/readyz`);
    return [res.status, await res.json()];
  };

  t.deepEqual(await ready(), [200, { status: 'ready' }]);
  t.is((await fetch(`${url}/api/v1/openapi.json`)).status, 200);
  const slow = fetch(`${url}/slow`).then(
    (r) => r.status,
    () => 'cut',
  );
  const gated = fetch(`${url}/gated`).then(async (r) => [r.status, await r.json()]);
  await Promise.all([started.slow.promise, started.gated.promise]);

  const closing = shutdown.close({ timeoutMs: 1000 });
  t.true(shutdown.closing);
  t.deepEqual(await ready(), [503, { status: 'not_ready', reason: 'shutting down' }]);
  await t.throwsAsync(fetch(`${url}/api/v1/openapi.json`), undefined, 'no new connection is taken');
  release.resolve();
  t.deepEqual(await gated, [200, { finished: true }], 'a request in flight finishes');
  await closing;
  t.is(await slow, 'cut', 'the request still running past the limit lost its connection');
  t.true(storageClosed);
  t.is(shutdown.close(), closing, 'a second close() is the same');
});

test('the readiness handler reports the host\'s own reason before any close()', async (t) => {
  const { server } = await listen(express());
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  let reason: string | null = 'database closed';
  const shutdown = gracefulShutdown(server, { notReadyReason: async () => reason });
  const admin = express();
  admin.get('/readyz', shutdown.readiness);
  const probe = await listen(admin);
  t.teardown(() => new Promise<void>((r) => probe.server.close(() => r())));
  const res = await fetch(`${probe.url}/readyz`);
  t.deepEqual([res.status, await res.json()], [503, { status: 'not_ready', reason: 'database closed' }]);
  reason = null;
  t.is((await fetch(`${probe.url}/readyz`)).status, 200);
});
