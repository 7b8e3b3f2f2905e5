import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createFormloom, type FormloomPlugin } from '@formloom/core';
import { createFormloomRouter } from '@formloom/express';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createHttpWebhookTransport } from '@formloom/webhook-http';

/*
 * The plugin in a host's own Express app (docs/embedding.md, docs/plugins.md): `createFormloom({ plugins })`
 * on in-memory SQLite, the API mounted at /api/v1, the host's outbox worker running, the HTTP webhook
 * transport allowing this machine's stand-ins. An owner with a key, and `call` for the API.
 */
export async function startEmbeddedHost(plugin: FormloomPlugin) {
  const dataSource = createDataSource('sqlite::memory:');
  await runMigrations(dataSource);
  const storage = createTypeormStorage(dataSource);
  const formloom = createFormloom({ storage, plugins: [plugin], webhookTransport: createHttpWebhookTransport({ allowPrivate: true }) });
  formloom.worker.start({ pollMs: 50 });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom }));
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const owner = await formloom.accounts.createUser({ email: 'host-owner@example.com' });
  const { api_key } = await formloom.accounts.createKey(owner.id);
  const call = async (method: string, path: string, body?: unknown, key: string | null = api_key) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    call,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await formloom.worker.stop();
      await storage.close();
    },
  };
}
