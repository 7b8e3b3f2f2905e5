import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createFormloom, type FormloomPlugin } from '@formloom/core';
import { createFormloomRouter } from '@formloom/express';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { startSelfHosted, type SelfHosted } from './app';

/*
 * For plugins' tests (plugins/*\/test): Formloom as an operator runs it, or as a host embeds it, with the
 * plugins under test, an owner's `forms` key, and `call` for the HTTP API. Receivers on this machine are
 * allowed: the services' stand-ins listen on 127.0.0.1. Not used by the app itself.
 */

export type ApiCall = (method: string, path: string, body?: unknown, key?: string | null) => Promise<{ status: number; body: any }>;

export interface TestInstance {
  /** The server's address (the API is under `/api/v1`). */
  url: string;
  apiKey: string;
  /** `path` under the server's address, e.g. `/api/v1/forms`; `key` null for a public call. */
  call: ApiCall;
  close(): Promise<void>;
}

function apiCaller(base: string, apiKey: string): ApiCall {
  return async (method, path, body, key = apiKey) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      // Generous: a loaded machine runs many test files at once.
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

/**
 * The self-hosted app on a test database of `kind` (`createTestDatabase`), with `config` as its
 * formloom.config.mjs (the file's text) and FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1.
 */
export async function startTestSelfHosted(kind: 'sqlite' | 'postgres', config = 'export default { plugins: [] };\n'): Promise<TestInstance & { app: SelfHosted }> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-plugin-test-'));
  const db = await createTestDatabase(kind);
  const configPath = join(dir, 'formloom.config.mjs');
  writeFileSync(configPath, config);
  const app = await startSelfHosted({
    PORT: '0',
    FORMLOOM_DATA_DIR: join(dir, 'data'),
    FORMLOOM_DATABASE_URL: db.url,
    FORMLOOM_CONFIG: configPath,
    FORMLOOM_LOG_LEVEL: 'silent',
    FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
  });
  const owner = await app.formloom.accounts.createUser({ email: 'owner@example.com' });
  const { api_key } = await app.formloom.accounts.createKey(owner.id);
  return {
    app,
    url: app.url,
    apiKey: api_key,
    call: apiCaller(app.url, api_key),
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `plugins` in a host's own Express app (docs/embedding.md): `createFormloom({ plugins })` on in-memory
 * SQLite, the API at /api/v1, the host's outbox worker running, the HTTP webhook transport.
 */
export async function startPluginHost(plugins: FormloomPlugin[]): Promise<TestInstance> {
  const dataSource = createDataSource('sqlite::memory:');
  await runMigrations(dataSource);
  const storage = createTypeormStorage(dataSource);
  const formloom = createFormloom({ storage, plugins, webhookTransport: createHttpWebhookTransport({ allowPrivate: true }) });
  formloom.worker.start({ pollMs: 50 });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom }));
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const owner = await formloom.accounts.createUser({ email: 'host-owner@example.com' });
  const { api_key } = await formloom.accounts.createKey(owner.id);
  return {
    url,
    apiKey: api_key,
    call: apiCaller(url, api_key),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await formloom.worker.stop();
      await storage.close();
    },
  };
}
