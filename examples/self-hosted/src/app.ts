import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express, { type Express } from 'express';
import { createFormloom, PluginConfigError, type Formloom } from '@formloom/core';
import { createFileBlobStore } from '@formloom/blob-store-file';
import { createFormloomRouter, createPublicPagesRouter } from '@formloom/express';
import { openMigratedStorage } from '@formloom/storage-typeorm';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { join } from 'node:path';
import { loadSecretKey } from './secret-key';
import { createMailerFromEnv } from '@formloom/mailer-smtp';
import { type Env, readSelfHostedConfig } from './config';
import { ConfigFileError, loadPluginConfig, portsProvided } from './plugin-config';
import { readHttpConfig, type HttpConfig } from './http-config';

const CLOSE_GRACE_MS = 5000;

/**
 * Server time-outs (docs/security.md, "Input limits"): a client gets 20 s to send its headers and two
 * minutes for the whole request (a 100 MB upload at ~7 Mbit/s), so a stalled or trickling client cannot
 * hold a connection for Node's default five minutes.
 */
export const SERVER_TIMEOUTS = { headersTimeout: 20_000, requestTimeout: 120_000, keepAliveTimeout: 5_000 } as const;

export interface SelfHosted {
  /** Where this process listens, e.g. `http://localhost:3000`. */
  url: string;
  port: number;
  /** Base of shareable links (`FORMLOOM_PUBLIC_URL`, default `url`). */
  publicUrl: string;
  formloom: Formloom;
  /** The plugin config file read at start (`FORMLOOM_CONFIG`), or `null` when the defaults run. */
  configPath: string | null;
  /** The HTTP server (its time-outs are `SERVER_TIMEOUTS`). */
  server: Server;
  /** Stops accepting connections, ends open ones, then closes the database. */
  close(): Promise<void>;
}

/** The whole self-hosted app on one Formloom instance. */
export function createApp(formloom: Formloom, inFlight?: InFlight, http: HttpConfig = readHttpConfig({})): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', http.trustProxy);
  if (inFlight) app.use(inFlight.middleware);
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: http.rateLimits, embedOrigins: http.embedOrigins }));
  app.use('/', createPublicPagesRouter({ formloom, rateLimits: http.rateLimits, embedOrigins: http.embedOrigins }));
  return app;
}

/** Counts requests being handled, so that shutdown waits for them before closing the database. */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];
  readonly middleware: express.RequestHandler = (_req, res, next) => {
    this.count += 1;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.count -= 1;
      if (this.count === 0) for (const w of this.waiters.splice(0)) w();
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
  /** Resolves when no request is being handled, or after `ms`. */
  idle(ms: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Opens (and migrates) the database, then listens on `PORT`. */
export async function startSelfHosted(env: Env = process.env): Promise<SelfHosted> {
  const config = readSelfHostedConfig(env);
  const http = readHttpConfig(env);
  // The config file is read before anything is opened, so a bad one stops the start with nothing to undo.
  const file = await loadPluginConfig(env);
  // Owner-only: the data dir holds the database, the secret key, uploads and mails (docs/security.md).
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const storage = await openMigratedStorage(config.databaseUrl);
  // The defaults of docs/configuration.md, except for ports that a configured plugin provides.
  const provided = portsProvided(file.plugins);
  const mailer = provided.has('mailer') ? null : createMailerFromEnv(env, config.dataDir);
  let formloom: Formloom;
  try {
    formloom = createFormloom({
      storage,
      plugins: file.plugins,
      ...(provided.has('webhookTransport') ? {} : { webhookTransport: createHttpWebhookTransport({ allowPrivate: env.FORMLOOM_WEBHOOK_ALLOW_PRIVATE === '1' }) }),
      ...(provided.has('blobStore') ? {} : { blobStore: createFileBlobStore(join(config.dataDir, 'blobs')) }),
      ...(mailer ? { mailer } : {}),
      config: {
        publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
        secretKey: loadSecretKey(env, config.dataDir),
        uploadQuotaBytes: config.uploadQuotaBytes,
        outboxRetentionMs: config.outboxRetentionMs,
      },
    });
  } catch (e) {
    await mailer?.close();
    await storage.close();
    throw e instanceof PluginConfigError && file.path ? new ConfigFileError(file.path, e.message, e) : e;
  }
  const inFlight = new InFlight();
  // Node checks the time-outs every `connectionsCheckingInterval` (30 s by default): check more often.
  const server = createServer({ ...SERVER_TIMEOUTS, connectionsCheckingInterval: 5_000 }, createApp(formloom, inFlight, http));
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
  server.listen(config.port, config.host);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (e) {
    await mailer?.close();
    await storage.close();
    throw e;
  }
  formloom.worker.start();
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    publicUrl: config.publicUrl ?? url,
    formloom,
    configPath: file.path,
    server,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive connections go at once; requests in flight get a few seconds to finish, and the
        // database stays open until they have (a stuck client must not hold the stop).
        server.closeIdleConnections();
        await inFlight.idle(CLOSE_GRACE_MS);
        server.closeAllConnections();
        await closed;
        await formloom.worker.stop();
        await mailer?.close();
        await storage.close();
      })()),
  };
}
