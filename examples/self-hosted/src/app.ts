import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import { CORE_VERSION, createFormloom, localPayments, PluginConfigError, type Formloom } from '@formloom/core';
import { createFormloomRouter, createPublicPagesRouter, expressServerClasses, gracefulShutdown, requestLogging, type HttpLogger } from '@formloom/express';
import { createWorkspaceRouter } from '@formloom/workspace';
import { openMigratedStorage, type ClosableStorage } from '@formloom/storage-typeorm';
import type { DestinationStream, Logger as Pino } from 'pino';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { readSealSettings } from './signing-seal';
import { lazySignedDocuments } from './lazy-signing';
import { lazyAudioCodecs, lazyEngines } from './lazy-voice';
import { checkSecretKey, loadSecretKey } from './secret-key';
import { openBlobStore, type OpenedBlobStore } from './blob-store';
import { createMailerFromEnv } from '@formloom/mailer-smtp';
import { type Env, listenUrl, readSelfHostedConfig } from './config';
import { coreLogger, createAppLogger } from './logging';
import { ConfigFileError, loadPluginConfig, portsProvided } from './plugin-config';
import { officialPlugins } from './official-plugins';
import { caldavCalendars } from '@formloom/calendar-caldav';
import { readHttpConfig, type HttpConfig } from './http-config';
import { checkConfiguration } from './env-check';
import { backupsPlugin, InstanceBackups } from '@formloom/backup';
import { readBackupConfig } from './backup-config';
import { migrateInChild } from './migrations-in-child';
import { creditPriceFromEnv, stripeFromEnv } from './payments-config';
import { twilioFromEnv } from './telephony-config';
import { translatorFromEnv } from './translator-config';

/**
 * Server time-outs (docs/security.md, "Input limits"): a client gets 20 s to send its headers and two
 * minutes for the whole request (a 100 MB upload at ~7 Mbit/s), so a stalled or trickling client cannot
 * hold a connection for Node's default five minutes.
 */
export const SERVER_TIMEOUTS = { headersTimeout: 20_000, requestTimeout: 120_000, keepAliveTimeout: 5_000 } as const;

export interface SelfHosted {
  /** Where this process listens, e.g. `http://127.0.0.1:3000` (`HOST` and `PORT`). */
  url: string;
  port: number;
  /** Base of shareable links (`FORMLOOM_PUBLIC_URL`, default `url`). */
  publicUrl: string;
  formloom: Formloom;
  /** Where blobs go (`FORMLOOM_BLOB_STORE`), e.g. `the PostgreSQL database`; `null` when a plugin provides the store. */
  blobStore: string | null;
  /** The plugin config file read at start (`FORMLOOM_CONFIG`), or `null` when the defaults run. */
  configPath: string | null;
  /** The HTTP server (its time-outs are `SERVER_TIMEOUTS`). */
  server: Server;
  /** The JSON-lines logger (pino) at `FORMLOOM_LOG_LEVEL`. */
  logger: Pino;
  /** Stops accepting connections, lets requests in flight finish (5 s at most), then closes the database. */
  close(): Promise<void>;
}

export interface AppOptions {
  http?: HttpConfig;
  /** One JSON line per request (docs/operations.md); none when absent. */
  logger?: HttpLogger;
  /** `/readyz`: `gracefulShutdown(...).readiness` of @formloom/express (503 while shutting down). Absent: always ready. */
  readiness?: RequestHandler;
}

/** The whole self-hosted app on one Formloom instance. */
export function createApp(formloom: Formloom, options: AppOptions = {}): Express {
  const http = options.http ?? readHttpConfig({});
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', http.trustProxy);
  app.use(requestLogging(options.logger));
  // Liveness and readiness for container health checks and load balancers (docs/operations.md).
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', options.readiness ?? ((_req, res) => void res.json({ status: 'ready' })));
  app.use('/api/v1', createFormloomRouter({ formloom, rateLimits: http.rateLimits, embedOrigins: http.embedOrigins, sessions: { signup: http.signup }, ...(options.logger ? { logger: options.logger } : {}) }));
  // Invitees accept by signing in or signing up in the workspace (docs/teams.md), never by pasting a key.
  const invitations = { signInUrl: '/signin?invite={token}', signUpUrl: '/signup?invite={token}' };
  app.use('/', createPublicPagesRouter({ formloom, rateLimits: http.rateLimits, embedOrigins: http.embedOrigins, invitations, ...(options.logger ? { logger: options.logger } : {}) }));
  // The owners' workspace (docs/workspace.md) at `/`, after the public pages, which keep /f, /s and /teams/invite.
  app.use('/', createWorkspaceRouter({ apiBase: '/api/v1' }));
  return app;
}

export interface StartOptions {
  /**
   * `true`: pending database migrations run in a child process (migrations-in-child.ts) and this one loads no
   * migration code (docs/operations.md, "Memory"): what `main.js`, the launcher's server, does. Default: here.
   */
  migrateInChild?: boolean;
}

/** Opens (and migrates) the database, then listens on `HOST`:`PORT`. `logDestination` replaces stdout (tests). */
export async function startSelfHosted(env: Env = process.env, logDestination?: DestinationStream, options: StartOptions = {}): Promise<SelfHosted> {
  // Every variable first, all at once: one line per bad one (docs/configuration.md), before anything opens.
  checkConfiguration(env);
  const config = readSelfHostedConfig(env);
  const http = readHttpConfig(env);
  const logger = createAppLogger(config.logLevel, logDestination);
  // The config file is read before anything is opened, so a bad one stops the start with nothing to undo.
  const file = await loadPluginConfig(env);
  // Payments (docs/payments.md): Stripe when its keys are set, unless a plugin provides the payments port.
  const stripe = await stripeFromEnv(env);
  const creditPrice = creditPriceFromEnv(env);
  // Confirmation calls of bookings (docs/booking.md): Twilio when its variables are set.
  const twilio = await twilioFromEnv(env);
  const translator = await translatorFromEnv(env);
  // Owner-only: the data dir holds the database, the secret key, uploads and mails (docs/security.md).
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const storage: ClosableStorage = await openMigratedStorage(
    config.databaseUrl,
    options.migrateInChild
      ? {
          migrate: async (pending) => {
            logger.info({ migrations: pending.length }, `Applying ${pending.length} database migrations in a child process`);
            await migrateInChild(config.databaseUrl);
          },
        }
      : {},
  );
  // The defaults of docs/configuration.md, except for ports that a configured plugin provides.
  const provided = portsProvided(file.plugins);
  let secretKey: string;
  let blobs: OpenedBlobStore | null;
  try {
    secretKey = loadSecretKey(env, config.dataDir);
    await checkSecretKey(storage, secretKey, { fromEnv: !!env.FORMLOOM_SECRET_KEY?.trim(), dataDir: config.dataDir });
    blobs = provided.has('blobStore') ? null : await openBlobStore(config.blobStore, storage, config.dataDir);
  } catch (e) {
    await storage.close();
    throw e;
  }
  const mailer = provided.has('mailer') ? null : createMailerFromEnv(env, config.dataDir);
  // The seal (docs/signing.md): the operator's P12, else the instance CA kept in the data dir; the PAdES level.
  // @formloom/pdf loads at the first signing (docs/benchmarks.md, "Where the memory goes"); an operator's P12 is
  // checked now.
  let signedDocuments: ReturnType<typeof lazySignedDocuments> | null = null;
  try {
    signedDocuments = provided.has('signedDocuments') ? null : lazySignedDocuments(readSealSettings(env, config.dataDir, config.publicUrl));
    if (signedDocuments && env.FORMLOOM_SIGNING_P12) await signedDocuments.ready();
  } catch (e) {
    await mailer?.close();
    blobs?.close();
    await storage.close();
    throw e;
  }
  // The voice API's packages load, and its engines start, on first use (a voice list or a generation), not here.
  const voiceLogger = logger.child({ component: 'voice' });
  const engines = lazyEngines(voiceLogger);
  const audio = provided.has('audio') ? null : lazyAudioCodecs(voiceLogger);
  const closeAdapters = async () => {
    await mailer?.close();
    blobs?.close();
    await storage.close();
  };
  // Listen before the instance exists: with PORT=0 its public URL (upload URLs, signing and invitation
  // links) needs the port the system gave. The app is attached in the same tick, before any request is read.
  // Node checks the time-outs every `connectionsCheckingInterval` (30 s by default): check more often.
  // Requests are born with the app's prototypes (docs/embedding.md, "Serving an Express app fast").
  const classes = expressServerClasses();
  const server: Server = createServer({
    ...SERVER_TIMEOUTS,
    connectionsCheckingInterval: 5_000,
    IncomingMessage: classes.IncomingMessage,
    ServerResponse: classes.ServerResponse,
  });
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
      server.listen(config.port, config.host);
    });
  } catch (e) {
    await closeAdapters();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const url = listenUrl(config.host, port);
  const publicUrl = config.publicUrl ?? url;
  // Archives of the running instance (docs/backup-and-restore.md): the admin area's, and scheduled ones.
  const backups = new InstanceBackups({
    ...readBackupConfig(env, config.dataDir),
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    secretKey,
    formloomVersion: CORE_VERSION,
  });
  let formloom: Formloom;
  try {
    formloom = createFormloom({
      storage,
      plugins: [...file.plugins, ...officialPlugins(file.plugins), backupsPlugin(backups)],
      logger: coreLogger(logger),
      speechEngines: engines,
      ...(audio ? { audio } : {}),
      ...(provided.has('webhookTransport') ? {} : { webhookTransport: createHttpWebhookTransport({ allowPrivate: env.FORMLOOM_WEBHOOK_ALLOW_PRIVATE === '1' }) }),
      ...(blobs ? { blobStore: blobs.store } : {}),
      ...(mailer ? { mailer } : {}),
      ...(signedDocuments ? { signedDocuments } : {}),
      // Owners connect their own CalDAV calendars for booking questions (docs/booking.md); a plugin may replace it.
      ...(provided.has('calendars') ? {} : { calendars: caldavCalendars() }),
      ...(twilio && !provided.has('telephony') ? { telephony: twilio } : {}),
      // auto_translate's translator (docs/languages.md); a plugin may provide its own.
      ...(translator && !provided.has('translator') ? { translator } : {}),
      ...(stripe && !provided.has('payments') ? { payments: { purchaseCredits: localPayments(storage).purchaseCredits, processor: stripe } } : {}),
      config: {
        publicUrl,
        secretKey,
        uploadQuotaBytes: config.uploadQuotaBytes,
        outboxRetentionMs: config.outboxRetentionMs,
        fileLinkTtlMs: config.fileLinkTtlMs,
        bookingHoldMinutes: config.bookingHoldMinutes,
        voice: http.voiceLimits,
        ...(creditPrice ? { creditPrice } : {}),
      },
    });
  } catch (e) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeAdapters();
    throw e instanceof PluginConfigError && file.path ? new ConfigFileError(file.path, e.message, e) : e;
  }
  // The drain hosts get from @formloom/express too (docs/embedding.md): requests in flight get 5 s to finish,
  // the database stays open until they have (a stuck client must not hold the stop).
  const scheduled = backups.schedule((e) => logger.error({ err: e }, 'scheduled backup failed'));
  const shutdown = gracefulShutdown(server, {
    formloom,
    notReadyReason: () => storage.notReadyReason(),
    close: async () => {
      await scheduled.stop();
      await Promise.all([...engines.map((e) => e.close()), audio?.close()]);
      await closeAdapters();
    },
  });
  const app = createApp(formloom, { http, logger, readiness: shutdown.readiness });
  classes.attach(app);
  server.on('request', app);
  formloom.worker.start();
  return {
    url,
    port,
    publicUrl,
    formloom,
    blobStore: blobs?.describe ?? null,
    configPath: file.path,
    server,
    logger,
    close: () => shutdown.close(),
  };
}
