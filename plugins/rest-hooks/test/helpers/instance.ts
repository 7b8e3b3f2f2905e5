import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createFormloom, type FormloomPlugin } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { createFormloomRouter } from '@formloom/express';

/** A Formloom instance with `plugins`, its API on a local port, its outbox worker running (tests only). */
export async function startInstance(kind: 'sqlite' | 'postgres', plugins: FormloomPlugin[]) {
  const db = await createTestDatabase(kind);
  const formloom = createFormloom({
    storage: db.storage,
    plugins,
    // Local stand-ins of the services listen on loopback: allowed here as FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1 would.
    webhookTransport: createHttpWebhookTransport({ allowPrivate: true }),
    config: { secretKey: 'plugin-test-secret' },
    logger: { info() {}, warn() {}, error: (m, d) => console.error(m, d) },
  });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false }));
  const server: Server = await new Promise((resolve) => {
    const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  formloom.worker.start({ pollMs: 50 });
  let seq = 0;
  const api = async (method: string, path: string, key?: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  };
  return {
    url,
    formloom,
    api,
    async user() {
      const user = await formloom.accounts.createUser({ email: `plugin${process.pid}_${++seq}@example.com`, plan: 'free' });
      return { id: user.id, key: (await formloom.accounts.createKey(user.id)).api_key };
    },
    /** Makes the waiting integration deliveries due now (their next retry is seconds to hours away). */
    dueNow: () => db.raw(`UPDATE outbox SET next_attempt_at = '${new Date(Date.now() - 1000).toISOString()}' WHERE kind = 'integrations.delivery' AND status = 'pending'`),
    /** Waits until no integration delivery is left to send. */
    settled: () => waitFor(async () => (await db.raw(`SELECT COUNT(*) AS n FROM outbox WHERE kind = 'integrations.delivery' AND status = 'pending'`))[0].n == 0, { timeoutMs: 60_000, intervalMs: 50 }),
    async close() {
      await formloom.worker.stop();
      await new Promise((r) => server.close(r));
      await db.close();
    },
  };
}

export const until = <T>(fn: () => Promise<T | undefined | false> | T | undefined | false) => waitFor(fn, { timeoutMs: 60_000, intervalMs: 50 }) as Promise<T>;
