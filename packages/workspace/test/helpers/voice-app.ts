import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import express from 'express';
import { createFormloom, SessionIssuer, type Formloom } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFileBlobStore, createFormloomRouter } from '@formloom/express';
import { createAudioCodecs } from '@formloom/audio';
import { createFliteEngine } from '@formloom/speech-flite';
import { createWorkspaceRouter } from '../../src/server';
import type { DbKind } from './app';

export interface VoiceTestUser {
  id: string;
  email: string;
  /** A voice key, for what the test does "in another tab". */
  key: string;
  /** The session cookie that signs the browser in as this user. */
  cookie: { name: string; value: string; url: string };
}

export interface VoiceTestApp {
  url: string;
  formloom: Formloom;
  /** A user with `credits` bought as `formloom credits purchase` does, and a browser session. */
  user(opts?: { credits?: number; verified?: boolean }): Promise<VoiceTestUser>;
  api(method: string, path: string, opts?: { key?: string; body?: unknown }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

let seq = 0;

/**
 * The API with sessions (people sign in as in the self-hosted app: voice needs a session or a voice key, and a
 * session acts with both scopes), a real embedded speech engine (Flite: one child process, English voices),
 * the audio encoders and the workspace, over a fresh database on an ephemeral port.
 */
export async function startVoiceApp(kind: DbKind = 'sqlite'): Promise<VoiceTestApp> {
  const db = await createTestDatabase(kind);
  const engine = createFliteEngine({ poolSize: 1 });
  const blobDir = mkdtempSync(join(tmpdir(), 'formloom-voice-blobs-'));
  // The sync budget is out of the way: tests assert the outcome, not how fast a busy machine makes it.
  const formloom = createFormloom({ storage: db.storage, blobStore: createFileBlobStore(blobDir), audio: createAudioCodecs(), speechEngines: [engine], config: { secretKey: 'test-secret-key', voice: { syncBudgetMs: 600_000 } } });
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, sessions: { signup: 'closed' }, rateLimits: false, logger: { error: (m, e) => console.error(m, e) } }));
  app.use(createWorkspaceRouter({ apiBase: '/api/v1' }));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  return {
    url,
    formloom,
    async user(opts = {}) {
      const email = `voice${process.pid}_${Date.now()}_${++seq}@example.com`;
      const user = await formloom.accounts.createUser({ email, verified: opts.verified ?? true, first_name: 'Vera', last_name: 'Voice' });
      if (opts.credits) await formloom.accounts.purchaseCredits(user.id, opts.credits);
      const { api_key } = await formloom.accounts.createKey(user.id, { scope: 'voice' });
      const stored = (await formloom.storage.users.findById(user.id))!;
      const opened = await formloom.service(SessionIssuer).open(formloom.storage, stored, { user_agent: 'test', ip_address: null });
      return { id: user.id, email, key: api_key, cookie: { name: 'formloom_session', value: opened.token, url } };
    },
    async api(method, path, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}/api/v1${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    async close() {
      await formloom.worker.stop();
      await new Promise<void>((r) => server.close(() => r()));
      await engine.close();
      await db.close();
      rmSync(blobDir, { recursive: true, force: true });
    },
  };
}
