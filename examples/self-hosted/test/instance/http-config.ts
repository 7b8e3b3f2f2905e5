import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { readHttpConfig, startSelfHosted } from '../../src';

test('the HTTP variables: defaults, limits raised or turned off, trust proxy values', (t) => {
  t.deepEqual(readHttpConfig({}), { trustProxy: false, embedOrigins: '*', rateLimits: {}, voiceLimits: {}, signup: 'invite' });
  t.is(readHttpConfig({ FORMLOOM_SIGNUP: 'Open' }).signup, 'open');
  t.throws(() => readHttpConfig({ FORMLOOM_SIGNUP: 'anyone' }), { message: /FORMLOOM_SIGNUP/ });
  t.deepEqual(readHttpConfig({ FORMLOOM_RATE_LIMIT_VOICE: '120', FORMLOOM_RATE_LIMIT_VOICE_ESTIMATES: 'off' }).voiceLimits, {
    generationsPerMinute: 120,
    estimatesPerMinute: 0,
  });
  t.deepEqual(readHttpConfig({ FORMLOOM_RATE_LIMITS: 'off' }).voiceLimits, { generationsPerMinute: 0, estimatesPerMinute: 0 });
  t.throws(() => readHttpConfig({ FORMLOOM_RATE_LIMIT_VOICE: '-1' }), { message: /^FORMLOOM_RATE_LIMIT_VOICE: / });
  t.is(readHttpConfig({ FORMLOOM_RATE_LIMITS: 'off' }).rateLimits, false);
  t.is(readHttpConfig({ FORMLOOM_RATE_LIMITS: '0' }).rateLimits, false);
  t.deepEqual(readHttpConfig({ FORMLOOM_RATE_LIMIT_PER_KEY: '5000', FORMLOOM_RATE_LIMIT_FAILED_AUTH: 'off', FORMLOOM_RATE_LIMIT_UPLOADS: '0' }).rateLimits, {
    perKey: { limit: 5000, windowSeconds: 60 },
    failedAuth: false,
    uploads: false,
  });
  t.is(readHttpConfig({ FORMLOOM_TRUST_PROXY: 'true' }).trustProxy, true);
  t.is(readHttpConfig({ FORMLOOM_TRUST_PROXY: '2' }).trustProxy, 2);
  t.is(readHttpConfig({ FORMLOOM_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy, 'loopback, 10.0.0.0/8');
  t.deepEqual(readHttpConfig({ FORMLOOM_EMBED_ORIGINS: 'https://a.example, https://b.example/' }).embedOrigins, ['https://a.example', 'https://b.example']);
  t.throws(() => readHttpConfig({ FORMLOOM_RATE_LIMIT_SUBMISSIONS: 'lots' }), { message: /^FORMLOOM_RATE_LIMIT_SUBMISSIONS: / });
  t.throws(() => readHttpConfig({ FORMLOOM_EMBED_ORIGINS: "https://a.example;script-src 'unsafe-inline'" }), { message: /^FORMLOOM_EMBED_ORIGINS: / });
});

test('the running app: client IPs from X-Forwarded-For behind a trusted proxy, configured limits and frame-ancestors', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-http-config-'));
  // A migrated copy: the test is about the HTTP settings (a new file's migrations: self-hosted.test.ts).
  mkdirSync(join(dir, 'data'), { mode: 0o700 });
  await migratedSqliteFile(join(dir, 'data', 'formloom.sqlite'));
  const app = await startSelfHosted({
    PORT: '0',
    FORMLOOM_DATA_DIR: join(dir, 'data'),
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'data', 'formloom.sqlite')}`,
    FORMLOOM_TRUST_PROXY: 'loopback',
    FORMLOOM_RATE_LIMIT_FAILED_AUTH: '2',
    FORMLOOM_RATE_LIMIT_VOICE: '7',
    FORMLOOM_EMBED_ORIGINS: 'https://shop.example.com',
  });
  try {
    t.is(app.formloom.config.voice.generationsPerMinute, 7, 'the voice limit reaches the instance');
    t.is(app.formloom.config.voice.estimatesPerMinute, 300, 'the other keeps its default');
    const guess = (client: string) =>
      fetch(`${app.url}/api/v1/forms`, { headers: { authorization: 'Bearer fl_nope', 'x-forwarded-for': client } }).then((r) => r.status);
    t.deepEqual([await guess('198.51.100.7'), await guess('198.51.100.7'), await guess('198.51.100.7')], [401, 401, 429]);
    t.is(await guess('198.51.100.8'), 401, 'another client behind the proxy has its own budget');
    const page = await fetch(`${app.url}/f/no-such-form`);
    t.is(page.status, 404);
    t.regex(page.headers.get('content-security-policy') ?? '', /frame-ancestors https:\/\/shop\.example\.com(;|$)/);
    t.is(page.headers.get('x-content-type-options'), 'nosniff');
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bad variable stops the start with its name', async (t) => {
  await t.throwsAsync(startSelfHosted({ PORT: '0', FORMLOOM_RATE_LIMIT_PER_KEY: '-1' }), { message: /^FORMLOOM_RATE_LIMIT_PER_KEY: / });
});
