import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createFormloom, type Formloom, type FormloomOptions, type PlanName, type Principal } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { apiKeyAuthenticator, createFormloomRouter, createPublicPagesRouter } from '@formloom/express';
import { createWorkspaceRouter } from '../../src/server';

export type DbKind = 'sqlite' | 'postgres';

/** The name of the test host's own sign-in cookie (the embedding mode of docs/embedding.md). */
export const HOST_COOKIE = 'test_host_user';

export interface WorkspaceTestApp {
  url: string;
  formloom: Formloom;
  /** SQL on the test database, bypassing the API (to change what a test must see changed behind its back). */
  raw(sql: string, params?: unknown[]): Promise<any[]>;
  /** A new Formloom user and a forms key for it; `cookie` signs the browser in as that user. */
  user(plan?: PlanName): Promise<{ id: string; email: string; key: string; cookie: { name: string; value: string; url: string } }>;
  api(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

let seq = 0;

/**
 * The API, the public pages and the workspace in one host app over a fresh database, on an ephemeral port.
 * Until sessions exist, the browser signs in through the host's `authenticate` hook: a cookie naming a user.
 */
export async function startWorkspaceApp(kind: DbKind = 'sqlite', adapters: Omit<FormloomOptions, 'storage' | 'config'> = {}): Promise<WorkspaceTestApp> {
  const db = await createTestDatabase(kind);
  const formloom = createFormloom({ ...adapters, storage: db.storage, config: { secretKey: 'test-secret-key' } });
  const tokens = new Map<string, string>();
  const byKey = apiKeyAuthenticator(formloom);
  const authenticate = async (req: express.Request): Promise<Principal | null> => {
    const raw = req.headers.cookie ?? '';
    const m = new RegExp(`(?:^|;\\s*)${HOST_COOKIE}=([^;]+)`).exec(raw);
    const userId = m ? tokens.get(decodeURIComponent(m[1]!)) : undefined;
    if (userId) return { user_id: userId, key_id: null, scope: 'forms' };
    // Programs in the test call with the user's key, as they would against any host.
    return byKey(req);
  };
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, authenticate, rateLimits: false, logger: { error: (m, e) => console.error(m, e) } }));
  app.use(createPublicPagesRouter({ formloom, rateLimits: false }));
  app.use(createWorkspaceRouter({ apiBase: '/api/v1' }));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  return {
    url,
    formloom,
    raw: (sql, params) => db.raw(sql, params),
    async user(plan: PlanName = 'free') {
      const email = `owner${process.pid}_${Date.now()}_${++seq}@example.com`;
      const user = await formloom.accounts.createUser({ email, plan, first_name: 'Ada', last_name: 'Owner' });
      const { api_key } = await formloom.accounts.createKey(user.id);
      const token = `t${seq}_${Math.random().toString(36).slice(2)}`;
      tokens.set(token, user.id);
      return { id: user.id, email, key: api_key, cookie: { name: HOST_COOKIE, value: token, url } };
    },
    async api(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}/api/v1${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    async close() {
      await formloom.worker.stop();
      // Every test has ended: a connection a browser kept alive would hold close() for its keep-alive.
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await db.close();
    },
  };
}

/**
 * The form `id` as the server holds it once `check` accepts it: the builder saves in the background, so a test
 * waits for the saved state (read every 200 ms, for up to a minute) instead of reading it once.
 */
export async function serverHas(app: WorkspaceTestApp, id: string, key: string, check: (form: any) => boolean): Promise<any> {
  let last: any;
  try {
    return await waitFor(async () => {
      last = (await app.api('GET', `/forms/${id}`, { key })).body;
      return check(last) ? last : false;
    }, { timeoutMs: 60_000, intervalMs: 200 });
  } catch {
    throw new Error(`the server never got there: ${JSON.stringify(last)}`);
  }
}
