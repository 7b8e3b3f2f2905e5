import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFormloom } from '@formloom/core';
import { slackPlugin } from '@formloom/plugin-slack';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { expressServerClasses } from '@formloom/express';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createHostApp } from './app';
import { HostSessions, type HostUser } from './host-sessions';

export interface EmbedExample {
  url: string;
  close(): Promise<void>;
}

/** Demo sessions; a real host has its own login. */
export const DEMO_SESSIONS: ReadonlyMap<string, HostUser> = new Map([
  ['ada-session', { email: 'ada@example.com', name: 'Ada Lovelace' }],
  ['grace-session', { email: 'grace@example.com', name: 'Grace Hopper' }],
]);

/** Wires storage, Formloom and the host app, and listens on `PORT` (default 3001). */
export async function startEmbedExample(env: Record<string, string | undefined> = process.env): Promise<EmbedExample> {
  let url = env.FORMLOOM_DATABASE_URL || 'sqlite:./data/embed-express.sqlite';
  if (url.startsWith('sqlite:') && url !== 'sqlite::memory:') {
    const file = resolve(url.slice('sqlite:'.length));
    mkdirSync(dirname(file), { recursive: true });
    url = `sqlite:${file}`;
  }
  const dataSource = createDataSource(url);
  const storage = createTypeormStorage(dataSource);
  await runMigrations(dataSource);
  // The Slack / Discord / Teams / Google Chat integrations (docs/integrations.md): their messages go out
  // through the webhook transport (private addresses refused unless FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1) and
  // the outbox worker, which an embedding host starts and stops itself.
  const formloom = createFormloom({
    storage,
    plugins: [slackPlugin()],
    webhookTransport: createHttpWebhookTransport({ allowPrivate: env.FORMLOOM_WEBHOOK_ALLOW_PRIVATE === '1' }),
  });
  formloom.worker.start();
  const app = createHostApp({ formloom, sessions: new HostSessions(new Map(DEMO_SESSIONS)), demoUsers: DEMO_SESSIONS });
  // Requests born with the app's prototypes: far less garbage per request (docs/embedding.md).
  const classes = expressServerClasses();
  classes.attach(app);
  const server = createServer({ IncomingMessage: classes.IncomingMessage, ServerResponse: classes.ServerResponse }, app);
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(Number(env.PORT ?? 3001), ok));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      await formloom.worker.stop();
      await storage.close();
    },
  };
}
