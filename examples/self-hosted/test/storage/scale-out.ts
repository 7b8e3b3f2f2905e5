import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { readSelfHostedConfig, startSelfHosted } from '../../src';

test('FORMLOOM_BLOB_STORE follows the database unless set; s3 takes the FORMLOOM_S3_* variables', (t) => {
  t.deepEqual(readSelfHostedConfig({}).blobStore, { kind: 'file' });
  t.deepEqual(readSelfHostedConfig({ FORMLOOM_DATABASE_URL: 'postgres://db/formloom' }).blobStore, { kind: 'postgres' });
  t.deepEqual(readSelfHostedConfig({ FORMLOOM_DATABASE_URL: 'postgres://db/formloom', FORMLOOM_BLOB_STORE: 'FILE' }).blobStore, { kind: 'file' });
  t.deepEqual(
    readSelfHostedConfig({
      FORMLOOM_BLOB_STORE: 's3',
      FORMLOOM_S3_BUCKET: 'forms',
      FORMLOOM_S3_ENDPOINT: 'https://s3.example.com/',
      FORMLOOM_S3_ACCESS_KEY_ID: 'id',
      FORMLOOM_S3_SECRET_ACCESS_KEY: 'secret',
      FORMLOOM_S3_FORCE_PATH_STYLE: 'true',
    }).blobStore,
    { kind: 's3', bucket: 'forms', endpoint: 'https://s3.example.com', region: 'us-east-1', credentials: { accessKeyId: 'id', secretAccessKey: 'secret' }, forcePathStyle: true },
  );
  t.deepEqual(readSelfHostedConfig({ FORMLOOM_BLOB_STORE: 's3', FORMLOOM_S3_BUCKET: 'forms', FORMLOOM_S3_REGION: 'eu-west-1' }).blobStore, {
    kind: 's3',
    bucket: 'forms',
    region: 'eu-west-1',
    forcePathStyle: false,
  });
});

test('a bad blob store setting is refused at once, each message naming its variable', (t) => {
  const lines = (env: Record<string, string>) => t.throws(() => readSelfHostedConfig(env))!.message.split('\n');
  t.deepEqual(lines({ FORMLOOM_BLOB_STORE: 'nfs' }), ['FORMLOOM_BLOB_STORE: expected one of file, postgres, s3, got "nfs"']);
  t.deepEqual(lines({ FORMLOOM_BLOB_STORE: 'postgres' }), ['FORMLOOM_BLOB_STORE: postgres needs a PostgreSQL FORMLOOM_DATABASE_URL (postgres://...)']);
  t.deepEqual(lines({ FORMLOOM_BLOB_STORE: 's3', FORMLOOM_S3_ACCESS_KEY_ID: 'id', FORMLOOM_S3_FORCE_PATH_STYLE: 'maybe', FORMLOOM_S3_ENDPOINT: 's3.example.com' }).sort(), [
    'FORMLOOM_S3_BUCKET: needed when FORMLOOM_BLOB_STORE is s3',
    'FORMLOOM_S3_ENDPOINT: expected an http(s) URL such as https://s3.example.com',
    'FORMLOOM_S3_FORCE_PATH_STYLE: expected 1 or 0 (true or false), got "maybe"',
    'FORMLOOM_S3_SECRET_ACCESS_KEY: set both FORMLOOM_S3_ACCESS_KEY_ID and FORMLOOM_S3_SECRET_ACCESS_KEY, or neither',
  ].sort());
});

test('[postgres] two instances on one database share uploads: uploaded through A, downloaded through B', async (t) => {
  const db = await createTestDatabase('postgres');
  const dirs = [mkdtempSync(join(tmpdir(), 'formloom-a-')), mkdtempSync(join(tmpdir(), 'formloom-b-'))];
  t.teardown(async () => {
    await db.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const env = (dir: string) => ({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: db.url, FORMLOOM_LOG_LEVEL: 'silent', FORMLOOM_SECRET_KEY: 'shared-key-0123456789abcdef' });
  // Two machines: each its own data dir, one database, one secret key.
  const a = await startSelfHosted(env(dirs[0]!));
  t.teardown(() => a.close());
  const b = await startSelfHosted(env(dirs[1]!));
  t.teardown(() => b.close());
  t.is(a.blobStore, 'the PostgreSQL database');

  const cli = async (...argv: string[]) => {
    const r = await runCli(argv, { FORMLOOM_DATABASE_URL: db.url });
    if (r.code !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
  await cli('user', 'create', '--email', 'ada@example.com', '--plan', 'pro');
  const { api_key } = await cli('key', 'create', '--user', 'ada@example.com');
  const created = await fetch(`${a.url}/api/v1/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'CV' }] }),
  });
  t.is(created.status, 201);
  const form = (await created.json()) as { slug: string; questions: Array<{ id: string }> };
  const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 11) & 0xff));
  const body = new FormData();
  body.append('file', new Blob([content], { type: 'application/pdf' }), 'Résumé.pdf');
  const up = await fetch(`${a.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0]!.id}`, { method: 'POST', body });
  t.is(up.status, 201);
  const { url } = (await up.json()) as { url: string };

  const path = new URL(url).pathname;
  // The owner's key opens the file (docs/security.md "Uploaded files"), on either instance.
  const owner = { headers: { authorization: `Bearer ${api_key}` } };
  const down = await fetch(`${b.url}${path}`, owner);
  t.is(down.status, 200, 'instance B serves what instance A stored');
  t.true(Buffer.from(await down.arrayBuffer()).equals(content));
  t.regex(down.headers.get('content-type') ?? '', /^application\/pdf/);
  t.false(existsSync(join(dirs[0]!, 'blobs')), 'nothing went to the data dir of A');
  t.false(existsSync(join(dirs[1]!, 'blobs')));

  // A third instance started with another key is refused while the two serve on.
  await t.throwsAsync(startSelfHosted({ ...env(mkdtempSync(join(tmpdir(), 'formloom-c-'))), FORMLOOM_SECRET_KEY: 'not-the-shared-key-000000' }), {
    message: /^FORMLOOM_SECRET_KEY does not match this database: .*every instance of one deployment needs the same key/,
  });
  t.is((await fetch(`${a.url}${path}`, owner)).status, 200);
});

test('FORMLOOM_BLOB_STORE=s3 with a bucket that cannot be reached stops the start, naming the bucket', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-s3-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A port that was free a moment ago: nothing answers there.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const env = {
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_LOG_LEVEL: 'silent',
    FORMLOOM_BLOB_STORE: 's3',
    FORMLOOM_S3_BUCKET: 'forms',
    FORMLOOM_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    FORMLOOM_S3_ACCESS_KEY_ID: 'id',
    FORMLOOM_S3_SECRET_ACCESS_KEY: 'secret',
    FORMLOOM_S3_FORCE_PATH_STYLE: '1',
  };
  const err = await t.throwsAsync(startSelfHosted(env), { message: /^The S3 bucket "forms" at http:\/\/127\.0\.0\.1:\d+ cannot be used: .*Check FORMLOOM_S3_BUCKET/ });
  t.false(err!.message.includes('secret'), 'no credentials in the message');
  // The database was closed on the way out: the data dir can be opened again at once.
  const ok = await startSelfHosted({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_LOG_LEVEL: 'silent' });
  t.is(ok.blobStore, `files in ${join(dir, 'blobs')}`);
  await ok.close();
});
