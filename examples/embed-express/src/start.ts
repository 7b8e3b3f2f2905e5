import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFormloom } from '@formloom/core';
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
  const formloom = createFormloom({ storage });
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
      await storage.close();
    },
  };
}
