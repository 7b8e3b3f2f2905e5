import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createTestDatabase, migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { readSelfHostedConfig, startSelfHosted } from '../../src';

test('HOST defaults to 127.0.0.1 and the database follows FORMLOOM_DATA_DIR unless FORMLOOM_DATABASE_URL is set', (t) => {
  const defaults = readSelfHostedConfig({}, '/srv/app');
  t.like(defaults, { host: '127.0.0.1', port: 3000, dataDir: '/srv/app/data', databaseUrl: 'sqlite:/srv/app/data/formloom.sqlite', logLevel: 'info' });
  t.like(readSelfHostedConfig({ FORMLOOM_DATA_DIR: '/var/lib/formloom' }, '/srv/app'), { databaseUrl: 'sqlite:/var/lib/formloom/formloom.sqlite' });
  t.like(readSelfHostedConfig({ FORMLOOM_DATA_DIR: 'state' }, '/srv/app'), { databaseUrl: 'sqlite:/srv/app/state/formloom.sqlite' });
  t.like(readSelfHostedConfig({ FORMLOOM_DATA_DIR: '/var/lib/formloom', FORMLOOM_DATABASE_URL: 'postgres://db/formloom' }), { databaseUrl: 'postgres://db/formloom' });
  t.like(readSelfHostedConfig({ HOST: '0.0.0.0', FORMLOOM_LOG_LEVEL: 'DEBUG' }), { host: '0.0.0.0', logLevel: 'debug' });
});

test('every bad value is refused at once, each message naming its variable', (t) => {
  const e = t.throws(() =>
    readSelfHostedConfig({ PORT: 'http', HOST: 'my host', FORMLOOM_PUBLIC_URL: 'forms.example.com', FORMLOOM_UPLOAD_QUOTA_MB: '-5', FORMLOOM_DATABASE_URL: 'mysql://x' }),
  );
  const lines = e!.message.split('\n');
  t.true(lines.includes('PORT: expected a port number, got "http"'), e!.message);
  t.true(lines.some((l) => l.startsWith('HOST: expected an address')));
  t.true(lines.some((l) => l.startsWith('FORMLOOM_PUBLIC_URL: expected an http(s) URL')));
  t.true(lines.includes('FORMLOOM_UPLOAD_QUOTA_MB: expected a positive number, got "-5"'));
  t.throws(() => readSelfHostedConfig({ FORMLOOM_DATABASE_URL: 'mysql://x' }), { message: /^FORMLOOM_DATABASE_URL: expected sqlite:<path> or postgres:/ });
  t.throws(() => readSelfHostedConfig({ PORT: '70000' }), { message: 'PORT: expected a port number, got "70000"' });
});

test('the app binds HOST and prints the URL it listens on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-host-'));
  // The default database of the data folder, migrated already (a new file's migrations: self-hosted.test.ts).
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const app = await startSelfHosted({ PORT: '0', HOST: '127.0.0.1', FORMLOOM_DATA_DIR: dir, FORMLOOM_LOG_LEVEL: 'silent' });
  t.teardown(async () => (await app.close(), rmSync(dir, { recursive: true, force: true })));
  const address = app.server.address();
  t.like(address, { address: '127.0.0.1' });
  t.is(app.url, `http://127.0.0.1:${app.port}`);
  t.is((await fetch(`${app.url}/healthz`)).status, 200);
});

for (const kind of ['sqlite', 'postgres'] as const) test(`[${kind}] a secret key that cannot decrypt the stored secrets stops the start with what to do`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-key-'));
  const db = await createTestDatabase(kind);
  t.teardown(async () => (await db.close(), rmSync(dir, { recursive: true, force: true })));
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: db.url, FORMLOOM_LOG_LEVEL: 'silent', FORMLOOM_SECRET_KEY: 'first-key-0123456789' };
  await (await startSelfHosted(env)).close();
  await (await startSelfHosted(env)).close();
  await t.throwsAsync(startSelfHosted({ ...env, FORMLOOM_SECRET_KEY: 'another-key-9876543210' }), {
    message: /^FORMLOOM_SECRET_KEY does not match this database: .*Set FORMLOOM_SECRET_KEY to the key this database was first started with; every instance of one deployment needs the same key/,
  });
  // Without the variable, the key file made now is not the first key either.
  await t.throwsAsync(startSelfHosted({ ...env, FORMLOOM_SECRET_KEY: '' }), { message: /secret\.key is not the one it was first started with/ });
  // The right key still starts.
  await (await startSelfHosted(env)).close();
  t.pass();
});
