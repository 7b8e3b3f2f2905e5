import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createFormloom, type Clock, type Formloom, type FormloomOptions, type Mailer, type SignedDocumentRenderer } from '@formloom/core';
import { createDataSource, createPostgresBlobStore, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase, type TestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter, type SessionOptions } from '../../src';
import type { ApiResponse } from './app';
import { HttpClient } from './http-client';

/**
 * Two app instances over one PostgreSQL schema, each with its own storage (connection pool), router and
 * outbox worker, as when several app servers share a database (see multi-instance/two-instances.ts).
 */
export interface TwoInstances {
  instances: [Formloom, Formloom];
  urls: [string, string];
  raw(sql: string, params?: unknown[]): Promise<any[]>;
  /** Calls instance `i`'s API. */
  api(i: number, method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse>;
  /** A new user on `plan` with a forms key (made through instance 0). */
  user(plan?: 'free' | 'pro'): Promise<{ id: string; key: string }>;
  startWorkers(): void;
  close(): Promise<void>;
}

export interface TwoInstancesOptions {
  clock?: Clock;
  /** One mailer per instance, or the same one for both. */
  mailers?: [Mailer, Mailer];
  /** One renderer per instance (each instance seals with its own copy of the operator's certificate). */
  renderers?: [SignedDocumentRenderer, SignedDocumentRenderer];
  /** The routers' `sessions` options (docs/accounts.md). */
  sessions?: SessionOptions;
  /** Plugins, speech engines, audio codecs and config given to both instances alike. */
  plugins?: FormloomOptions['plugins'];
  speechEngines?: FormloomOptions['speechEngines'];
  audio?: FormloomOptions['audio'];
  config?: FormloomOptions['config'];
  /** Blobs (uploads, audio) in the shared database, so either instance serves what the other stored. */
  sharedBlobs?: boolean;
}

let seq = 0;

export async function startTwoInstances(opts: TwoInstancesOptions = {}): Promise<TwoInstances> {
  const db: TestDatabase = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  const storages = [db.storage, createTypeormStorage(second)] as const;
  const sources = [db.dataSource, second] as const;
  const instances = storages.map((storage, i) =>
    createFormloom({
      storage,
      ...(opts.sharedBlobs ? { blobStore: createPostgresBlobStore(sources[i]!) } : {}),
      clock: opts.clock,
      mailer: opts.mailers?.[i],
      signedDocuments: opts.renderers?.[i],
      ...(opts.plugins ? { plugins: opts.plugins } : {}),
      ...(opts.speechEngines ? { speechEngines: opts.speechEngines } : {}),
      ...(opts.audio ? { audio: opts.audio } : {}),
      config: { secretKey: 'shared-key', ...opts.config },
    }),
  ) as [Formloom, Formloom];
  const servers = await Promise.all(
    instances.map(
      (formloom) =>
        new Promise<Server>((resolve) => {
          const app = express();
          app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: false, sessions: opts.sessions, logger: { error: (m, e) => console.error(m, e) } }));
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
          // Longer than any test's pause under load: a reused keep-alive connection is never closed under a request.
          s.keepAliveTimeout = 60_000;
        }),
    ),
  );
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`) as [string, string];
  // Both instances answer for one public URL (behind one load balancer): links name instance 0.
  for (const f of instances) f.config.publicUrl = urls[0];
  const client = new HttpClient();
  return {
    instances,
    urls,
    raw: (sql, params) => db.raw(sql, params),
    async api(i, method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] = 'application/json';
      }
      const res = await client.send(`${urls[i % 2]}/api/v1${path}`, { method, headers, body }).catch((e: Error) => {
        throw new Error(`${method} ${path} on instance ${i % 2}: ${e.message}`);
      });
      const text = res.text;
      let parsed: any;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, headers: res.headers, text };
    },
    async user(plan = 'pro') {
      const user = await instances[0].accounts.createUser({ email: `two${process.pid}_${Date.now()}_${++seq}@example.com`, plan });
      const { api_key } = await instances[0].accounts.createKey(user.id);
      return { id: user.id, key: api_key };
    },
    startWorkers() {
      for (const f of instances) f.worker.start({ pollMs: 50 });
    },
    async close() {
      client.close();
      for (const f of instances) await f.worker.stop();
      // Every test has ended: a connection still open would hold close() for the 60 s keep-alive.
      for (const s of servers) {
        await new Promise((r) => {
          s.close(r);
          s.closeAllConnections();
        });
      }
      await storages[1].close();
      await db.close();
    },
  };
}
