import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import { oneAtATime } from './part-helpers';
import express from 'express';
import { createFormloom, voiceIdOf } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFileBlobStore, createFormloomRouter } from '../../src';
import { forEachDb } from '../helpers/app';
import { gatedEngine, sharedVoiceEngines, voiceUser } from '../helpers/voice';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The voice API's per-key request rates (docs/voice.md, "Rate limits"): generations and estimates counted
 * apart, per minute, in the database; X-RateLimit-* and Service-* headers on every answer; 429 with Retry-After.
 * The audio is asked for as WAV: its format is not what these tests are about, and each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds (docs/testing.md, "What it costs").
 */

const QUICK = voiceIdOf('gated', 'quick');
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const engine = gatedEngine().engine;

forEachDb(
  oneAtATime(),
  (t) => {
    t('generations: the fourth in a minute is 429 with Retry-After; estimates and other keys count apart', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const speak = (key = u.key, text = 'One, two, three.') => app.api('POST', '/voice', { key, body: { mode: 'speak', voice: QUICK, text, format: 'wav' } });
      for (const remaining of ['2', '1', '0']) {
        const ok = await speak();
        tt.is(ok.status, 200, ok.text);
        tt.is(ok.headers.get('x-ratelimit-limit'), '3');
        tt.is(ok.headers.get('x-ratelimit-remaining'), remaining);
        tt.regex(ok.headers.get('x-ratelimit-reset') ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        tt.is(ok.headers.get('service-rate-card'), ok.body.meta.rate_card);
      }
      const balance = await app.formloom.storage.credits.balance(u.id);
      const limited = await speak(u.key, 'Something new to say.');
      tt.is(limited.status, 429);
      tt.like(limited.body.error, { code: 'RATE_LIMITED', status: 429 });
      const retryAfter = Number(limited.headers.get('retry-after'));
      tt.true(retryAfter >= 1 && retryAfter <= 60);
      tt.is(limited.body.error.retry_after, retryAfter);
      tt.is(limited.headers.get('x-ratelimit-remaining'), '0');
      tt.is(limited.headers.get('service-credits-charged'), '0');
      tt.is(limited.headers.get('service-credits-remaining'), String(balance));
      tt.truthy(limited.headers.get('service-rate-card'));
      const stream = await app.api('POST', '/voice/stream', { key: u.key, body: { voice: QUICK, text: 'Streamed.' } });
      tt.is(stream.status, 429, 'streams are generations too');
      tt.is(await app.formloom.storage.credits.balance(u.id), balance, 'nothing charged');

      const est = await app.api('POST', '/voice', { key: u.key, body: { mode: 'estimate', voice: QUICK, text: 'How much?' } });
      tt.is(est.status, 200);
      tt.is(est.headers.get('x-ratelimit-limit'), '4');
      tt.is(est.headers.get('x-ratelimit-remaining'), '3');
      const voices = await app.api('GET', '/voice/voices', { key: u.key });
      tt.is(voices.status, 200);
      tt.truthy(voices.headers.get('x-ratelimit-limit'), 'read endpoints carry the per-key headers too');

      const otherKey = (await app.formloom.accounts.createKey(u.id, { scope: 'voice' })).api_key;
      tt.is((await speak(otherKey)).status, 200, 'each key has its own budget');

      clock.offsetMs += 61_000;
      const later = await speak(u.key, 'Something new to say.');
      tt.is(later.status, 200, 'a new minute');
      tt.is(later.headers.get('x-ratelimit-remaining'), '2');
    });
  },
  { speechEngines: [engine], audio: sharedVoiceEngines().audio, clock, config: { voice: { generationsPerMinute: 3, estimatesPerMinute: 4 } } },
);

/** Two app instances over one PostgreSQL schema count one key's generations against one budget. */
test('postgres: two instances share one voice generation budget per key', async (t) => {
  const db = await createTestDatabase('postgres');
  const second = createDataSource(db.url.split('?')[0]!, { schema: db.schema, poolSize: 5 });
  await runMigrations(second);
  const blobDir = mkdtempSync(join(tmpdir(), 'formloom-blobs-'));
  const storages = [db.storage, createTypeormStorage(second)];
  const instances = storages.map((storage) =>
    createFormloom({
      storage,
      blobStore: createFileBlobStore(blobDir),
      speechEngines: [engine],
      audio: sharedVoiceEngines().audio,
      config: { secretKey: 'shared-key', voice: { generationsPerMinute: 5 } },
    }),
  );
  const servers = await Promise.all(
    instances.map(
      (formloom) =>
        new Promise<Server>((resolve) => {
          const app = express();
          app.use('/api/v1', createFormloomRouter({ formloom }));
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
          // Longer than any pause under load: a reused keep-alive connection is never closed under a request.
          s.keepAliveTimeout = 60_000;
        }),
    ),
  );
  const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1`);
  try {
    const user = await instances[0]!.accounts.createUser({ email: `voicelimits${Date.now()}@example.com`, verified: true });
    await instances[0]!.accounts.purchaseCredits(user.id, 1000);
    const { api_key } = await instances[0]!.accounts.createKey(user.id, { scope: 'voice' });
    const speak = (i: number) =>
      fetch(`${urls[i % 2]}/voice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'speak', voice: QUICK, text: `Request number ${i}.`, format: 'wav' }),
      }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as any }));
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => speak(i)));
    const ok = answers.filter((a) => a.status === 200);
    t.is(ok.length, 5, 'five in all, not five per instance');
    t.is(answers.filter((a) => a.status === 429 && Number(a.retryAfter) >= 1).length, 4);
    for (const i of [0, 1]) t.is((await speak(100 + i)).status, 429, `instance ${i}`);
    const charged = ok.reduce((sum, a) => sum + a.body.data.credits.charged, 0);
    t.is(await instances[1]!.storage.credits.balance(user.id), 1000 - charged, 'refused requests charge nothing');
  } finally {
    for (const s of servers) await new Promise((r) => s.close(r));
    await storages[1]!.close();
    await db.close();
    rmSync(blobDir, { recursive: true, force: true });
  }
});
