import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { createFormloom, type AudioEncoding, type BlobStore, type FormloomOptions, type Clock, type Formloom, type FormloomPlugin, type Mailer, type PlanName, type SignedDocumentRenderer, type SpeechEngine } from '@formloom/core';
import { createPostgresBlobStore } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from './http-client';
import { responseChecker } from './schema-check';
import { createFetchTransport, createFileBlobStore, createFormloomRouter, createPublicPagesRouter, expressServerClasses, type EmbedOrigins, type RateLimitOptions, type SessionOptions } from '../../src';

export type DbKind = 'sqlite' | 'postgres';
export const DB_KINDS: DbKind[] = ['sqlite', 'postgres'];

export interface ApiResponse {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export interface TestApp {
  url: string;
  kind: DbKind;
  formloom: Formloom;
  raw(sql: string, params?: unknown[]): Promise<any[]>;
  /** Counts every response waiting for the analytics indexer now (storage-typeorm's response-indexer.ts). */
  indexed?(): Promise<void>;
  /** Calls the API: `key` is sent as a bearer token; `body` as JSON (a string is sent as is). */
  api(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse>;
  /** A new user on `plan` with a forms key. */
  user(plan?: PlanName): Promise<{ id: string; email: string; key: string }>;
  close(): Promise<void>;
  /** Where the app's blob store keeps files. */
  blobDir: string;
  /** operationIds whose success bodies `api` checked against their documented schema (see schema-check.ts). */
  checked: Set<string>;
}

let seq = 0;

/** The router mounted in a bare host app over a fresh database of `kind`, on an ephemeral port. */
export interface TestAppOptions {
  allowPrivateWebhooks?: boolean;
  /** Run the file's tests one at a time (they move a shared clock). */
  serial?: boolean;
  clock?: Clock;
  mailer?: Mailer;
  plugins?: FormloomPlugin[];
  /** The routers' limits (default: the shipped defaults). */
  rateLimits?: RateLimitOptions | false;
  embedOrigins?: EmbedOrigins;
  /** Express `trust proxy` of the host app. */
  trustProxy?: boolean | number | string;
  /** The signed-contract renderer (`@formloom/pdf`); signing endpoints need it. */
  signedDocuments?: SignedDocumentRenderer;
  /** Speech engines and audio encoding for the voice API (voice tests only). */
  speechEngines?: SpeechEngine[];
  audio?: AudioEncoding;
  /** Instance settings over the test defaults (`secretKey` too: instances that share a database share it). */
  config?: FormloomOptions['config'];
  /**
   * The blob store: files under `blobDir` (default), the test database itself (`postgres`, a PostgreSQL app only),
   * or this store.
   */
  blobStore?: 'file' | 'postgres' | BlobStore;
  /** Where the host mounts the API router (default `/api/v1`); `config.apiPath` follows it unless given. */
  apiPath?: string;
  /** The router's `sessions` options: sign-in endpoints and the session cookie (docs/accounts.md). */
  sessions?: SessionOptions;
  /** The instance's logger (default: the console). */
  logger?: FormloomOptions['logger'];
  /** Each answer checked against what its route documents: a drift answers 500 (`createFormloom({ strictResponses })`). */
  strictResponses?: boolean;
}

export async function startTestApp(kind: DbKind, opts: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(kind);
  const apiPath = opts.apiPath ?? '/api/v1';
  const blobDir = mkdtempSync(join(tmpdir(), 'formloom-blobs-'));
  const blobStore =
    opts.blobStore === 'postgres' ? createPostgresBlobStore(db.dataSource) : typeof opts.blobStore === 'object' ? opts.blobStore : createFileBlobStore(blobDir);
  const formloom = createFormloom({
    storage: db.storage,
    blobStore,
    clock: opts.clock,
    mailer: opts.mailer,
    signedDocuments: opts.signedDocuments,
    ...(opts.logger ? { logger: opts.logger } : {}),
    ...(opts.strictResponses ? { strictResponses: true } : {}),
    plugins: opts.plugins,
    speechEngines: opts.speechEngines,
    ...(opts.audio ? { audio: opts.audio } : {}),
    webhookTransport: createFetchTransport({ allowPrivate: opts.allowPrivateWebhooks ?? false }),
    config: { secretKey: 'test-secret-key', apiPath, ...opts.config },
  });
  const app = express();
  if (opts.trustProxy !== undefined) app.set('trust proxy', opts.trustProxy);
  const { rateLimits, embedOrigins } = opts;
  app.use(apiPath, createFormloomRouter({ formloom, rateLimits, embedOrigins, sessions: opts.sessions, logger: { error: (m, e) => console.error(m, e) } }));
  app.use(createPublicPagesRouter({ formloom, rateLimits, embedOrigins }));
  // Served as the self-hosted app serves it: requests born with the app's prototypes (server-classes.ts).
  const classes = expressServerClasses();
  classes.attach(app);
  const server: Server = await new Promise((resolve) => {
    const s = createServer({ IncomingMessage: classes.IncomingMessage, ServerResponse: classes.ServerResponse }, app);
    s.listen(0, '127.0.0.1', () => resolve(s));
    // Longer than any pause under load: a reused keep-alive connection is never closed under a request.
    s.keepAliveTimeout = 60_000;
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  const checker = responseChecker(formloom);
  const client = new HttpClient();
  return {
    url,
    kind,
    formloom,
    raw: (sql, params) => db.raw(sql, params),
    indexed: () => db.indexer.drain(),
    async api(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await client.send(`${url}${apiPath}${path}`, { method, headers, body });
      const text = res.text;
      let parsed: any = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      // Every answer of every test is held to the schemas the OpenAPI document is made of.
      checker.check(method, path, res.status, res.headers.get('content-type'), parsed);
      return { status: res.status, body: parsed, headers: res.headers, text };
    },
    async user(plan = 'free') {
      const email = `user${process.pid}_${Date.now()}_${++seq}@example.com`;
      const user = await formloom.accounts.createUser({ email, plan, first_name: 'Test', last_name: `User${seq}` });
      const { api_key } = await formloom.accounts.createKey(user.id);
      return { id: user.id, email, key: api_key };
    },
    async close() {
      await formloom.worker.stop();
      client.close();
      // Every test of the app has ended: a connection still open (a stream a client left unread, a
      // keep-alive one never reused) would hold close() for the 60 s keep-alive, the file's process with it.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await db.close();
      rmSync(blobDir, { recursive: true, force: true });
    },
    blobDir,
    checked: checker.checked,
  };
}

/** Runs `register` once per database kind, each with its own app shared by that kind's tests. */
export function forEachDb(
  test: import('ava').TestFn,
  register: (t: (title: string, fn: (tt: import('ava').ExecutionContext, app: TestApp) => Promise<void> | void) => void) => void,
  opts: TestAppOptions = {},
) {
  return forEachDbWith(test, register, opts);
}

function forEachDbWith(
  test: import('ava').TestFn,
  register: (t: (title: string, fn: (tt: import('ava').ExecutionContext, app: TestApp) => Promise<void> | void) => void) => void,
  opts: TestAppOptions,
) {
  for (const kind of DB_KINDS) {
    let app: TestApp | undefined;
    let starting: Promise<TestApp> | undefined;
    const get = () => (starting ??= startTestApp(kind, opts).then((a) => (app = a)));
    test.after.always(async () => {
      if (app) await app.close();
    });
    register((title, fn) => {
      (opts.serial ? test.serial : test)(`[${kind}] ${title}`, async (t) => fn(t, await get()));
    });
  }
}
