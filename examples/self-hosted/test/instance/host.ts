import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { readSelfHostedConfig, startSelfHosted } from '../../src';

test('HOST: 127.0.0.1 unless set', (t) => {
  t.is(readSelfHostedConfig({}).host, '127.0.0.1');
  t.is(readSelfHostedConfig({ HOST: ' ' }).host, '127.0.0.1');
  t.is(readSelfHostedConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
});

for (const [given, bound] of [[undefined, '127.0.0.1'], ['0.0.0.0', '0.0.0.0']] as const) {
  test(`the app listens on ${bound} when HOST is ${given ?? 'unset'}`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'formloom-host-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const env: Record<string, string> = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` };
    if (given) env.HOST = given;
    // A migrated copy: the test is about the address (a new file's migrations: self-hosted.test.ts).
    await migratedSqliteFile(join(dir, 'db.sqlite'));
    const app = await startSelfHosted(env);
    t.teardown(() => app.close());
    t.is((app.server.address() as AddressInfo).address, bound);
    const res = await fetch(`http://127.0.0.1:${app.port}/healthz`);
    t.deepEqual(await res.json(), { status: 'ok' });
  });
}
