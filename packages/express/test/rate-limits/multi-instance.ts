import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';

/** Two app instances over one PostgreSQL schema (as in multi-instance.test.ts) count against one budget. */
test('two instances on one PostgreSQL share one rate-limit budget', async (t) => {
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) => createFormloom({ storage, config: { secretKey: 'shared-key' } }));
  const servers = await Promise.all(
    instances.map(
      (formloom) =>
        new Promise<Server>((resolve) => {
          const app = express();
          app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: { perKey: { limit: 10 }, failedAuth: { limit: 6 } } }));
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
          // Longer than any pause under load: a reused keep-alive connection is never closed under a request.
          s.keepAliveTimeout = 60_000;
        }),
    ),
  );
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1`);
  try {
    const user = await instances[0]!.accounts.createUser({ email: `limits${Date.now()}@example.com`, plan: 'free' });
    const { api_key } = await instances[0]!.accounts.createKey(user.id);
    const get = (i: number, authorization: string) => fetch(`${urls[i % 2]}/forms`, { headers: { authorization } });
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => get(i, `Bearer ${api_key}`).then((r) => r.status)));
    t.is(statuses.filter((s) => s === 200).length, 10, 'ten in all, not ten per instance');
    t.is(statuses.filter((s) => s === 429).length, 6);
    for (const i of [0, 1]) t.is((await get(i, `Bearer ${api_key}`)).status, 429, `instance ${i}`);

    const guess = (i: number) => get(i, `Bearer fl_${'b'.repeat(24)}_${String(i).padStart(64, '0')}`).then((r) => r.status);
    t.is(await guess(100), 401, 'a first failure');
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => guess(i)));
    t.is(guesses.filter((s) => s === 401).length, 5, 'one failed-authentication budget for both');
    t.is(guesses.filter((s) => s === 429).length, 7);
    for (const i of [0, 1]) t.is(await guess(200 + i), 429, `instance ${i}`);
  } finally {
    for (const s of servers) await new Promise((r) => s.close(r));
    await storages[1]!.close();
    await db.close();
  }
});
