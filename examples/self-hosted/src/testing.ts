import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createFormloom, type Formloom, type FormloomPlugin } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { createFormloomRouter } from '@formloom/express';
import { createTestDatabase, type TestDatabase } from '@formloom/storage-typeorm/testing';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { startSelfHosted, type SelfHosted } from './app';

/*
 * For plugins' tests (plugins/*\/test): Formloom as an operator runs it, or as a host embeds it, with the
 * plugins under test, an owner's `forms` key, `call` for the HTTP API and the outbox's integration
 * deliveries at hand. Receivers on this machine are allowed: the services' stand-ins listen on 127.0.0.1.
 * Not used by the app itself.
 */

export type ApiCall = (method: string, path: string, body?: unknown, key?: string | null) => Promise<{ status: number; body: any; text: string }>;

export interface TestInstance {
  /** The server's address (the API is under `/api/v1`). */
  url: string;
  apiKey: string;
  /** `path` under the server's address, e.g. `/api/v1/forms`; `key` null for a public call. */
  call: ApiCall;
  /** Another account with a key of its own (an owner who is not the first, for refusals across accounts). */
  user(): Promise<{ id: string; key: string }>;
  /** Makes the waiting integration deliveries due now (their next retry is seconds to hours away). */
  dueNow(): Promise<void>;
  /** Waits until no integration delivery is left to send. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Waits for `check` to answer something, for up to a minute (a loaded machine runs many test files at once). */
export const until = <T>(check: () => Promise<T | false | undefined> | T | false | undefined) => waitFor(check, { timeoutMs: 60_000, intervalMs: 50 }) as Promise<T>;

function apiCaller(base: string, apiKey: string): ApiCall {
  return async (method, path, body, key = apiKey) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      // Generous: a loaded machine runs many test files at once.
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, text };
  };
}

/** What every test instance has beside its server: the owner's key, more accounts, the deliveries' outbox. */
async function testInstance(formloom: Formloom, db: TestDatabase, url: string, close: () => Promise<void>): Promise<TestInstance> {
  const owner = await formloom.accounts.createUser({ email: 'owner@example.com' });
  const { api_key } = await formloom.accounts.createKey(owner.id);
  let seq = 0;
  const pending = `kind = 'integrations.delivery' AND status = 'pending'`;
  return {
    url,
    apiKey: api_key,
    call: apiCaller(url, api_key),
    async user() {
      const user = await formloom.accounts.createUser({ email: `owner${++seq}@example.com`, plan: 'free' });
      return { id: user.id, key: (await formloom.accounts.createKey(user.id)).api_key };
    },
    dueNow: async () => void (await db.raw(`UPDATE outbox SET next_attempt_at = '${new Date(Date.now() - 1000).toISOString()}' WHERE ${pending}`)),
    settled: () => until(async () => (await db.raw(`SELECT COUNT(*) AS n FROM outbox WHERE ${pending}`))[0].n == 0).then(() => undefined),
    close,
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
  const close = async () => {
    await app.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, ...(await testInstance(app.formloom, db, app.url, close)) };
}

/**
 * The self-hosted app of each database kind with one plugin configured against a stand-in of its service
 * (each app its own, as the kinds' tests run at once), started at its first use. `exportName` is the
 * plugin's factory in the module at `pluginPath`, called with `options(stand-in)`; `closeAll` ends them
 * (for the test file's `test.after.always`).
 */
export function selfHostedPerKind<S extends { close(): Promise<unknown> }>(pluginPath: string, exportName: string, startStandIn: () => Promise<S>, options: (standIn: S) => Record<string, unknown>) {
  const started = new Map<string, Promise<{ f: TestInstance; fake: S }>>();
  return {
    setupFor(kind: 'sqlite' | 'postgres') {
      if (!started.has(kind)) {
        started.set(kind, (async () => {
          const fake = await startStandIn();
          const config = `import { ${exportName} } from ${JSON.stringify(pluginPath)};\nexport default { plugins: [${exportName}(${JSON.stringify(options(fake))})] };\n`;
          return { f: await startTestSelfHosted(kind, config), fake };
        })());
      }
      return started.get(kind)!;
    },
    async closeAll() {
      for (const s of started.values()) {
        const { f, fake } = await s;
        await f.close();
        await fake.close();
      }
    },
  };
}

/**
 * `plugins` in a host's own Express app (docs/embedding.md): `createFormloom({ plugins })` on a test database
 * of `kind`, the API at /api/v1 without rate limits, the host's outbox worker running, the HTTP webhook
 * transport.
 */
export async function startPluginHost(plugins: FormloomPlugin[], kind: 'sqlite' | 'postgres' = 'sqlite'): Promise<TestInstance> {
  const db = await createTestDatabase(kind);
  const formloom = createFormloom({
    storage: db.storage,
    plugins,
    webhookTransport: createHttpWebhookTransport({ allowPrivate: true }),
    config: { secretKey: 'plugin-test-secret' },
    logger: { info() {}, warn() {}, error: (m, d) => console.error(m, d) },
  });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false }));
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  formloom.worker.start({ pollMs: 50 });
  return testInstance(formloom, db, url, async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await formloom.worker.stop();
    await db.close();
  });
}
