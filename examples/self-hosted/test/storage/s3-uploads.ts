import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { S3RVER_CREDENTIALS, startS3Server } from '@formloom/blob-store-s3/testing';
import { startSelfHosted } from '../../src';

const MiB = 1024 * 1024;
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * Sends `total` bytes of a multipart upload; once `cutAfter` of them are written, waits for `beforeCut` and cuts
 * the connection.
 */
function cutUpload(url: string, total: number, cutAfter: number, beforeCut: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const head = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="cut.zip"\r\nContent-Type: application/zip\r\n\r\n');
    const req = request(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=B', 'content-length': String(head.length + total + 7) } });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    req.write(head);
    const piece = randomBytes(MiB);
    let sent = 0;
    const next = () => {
      while (sent < cutAfter) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', next);
      }
      void beforeCut().then(() => req.destroy());
    };
    next();
  });
}

test('FORMLOOM_BLOB_STORE=s3: an upload through the app lands in the bucket, streams back, and a failed one leaves nothing', async (t) => {
  const s3 = await startS3Server('formloom-uploads');
  const dir = mkdtempSync(join(tmpdir(), 'formloom-s3-app-'));
  t.teardown(async () => {
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = {
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_LOG_LEVEL: 'silent',
    FORMLOOM_BLOB_STORE: 's3',
    FORMLOOM_S3_BUCKET: s3.bucket,
    FORMLOOM_S3_ENDPOINT: s3.endpoint,
    FORMLOOM_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    FORMLOOM_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    FORMLOOM_S3_FORCE_PATH_STYLE: '1',
  };
  const app = await startSelfHosted(env);
  t.teardown(() => app.close());
  t.is(app.blobStore, `S3 bucket ${s3.bucket} at ${s3.endpoint}`);

  const cli = async (...argv: string[]) => {
    const r = await runCli(argv, env);
    if (r.code !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
  await cli('user', 'create', '--email', 'ada@example.com');
  const { api_key } = await cli('key', 'create', '--user', 'ada@example.com');
  const created = await fetch(`${app.url}/api/v1/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'Archive', properties: { max_size_mb: 12 } }] }),
  });
  t.is(created.status, 201);
  const form = (await created.json()) as { id: string; slug: string; questions: Array<{ id: string }> };
  const uploadUrl = `${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0]!.id}`;
  const prefix = `uploads/${form.id}/`;

  // 10 MiB: more than one 8 MiB part, so the store's multipart upload is what carries it.
  const content = randomBytes(10 * MiB);
  const body = new FormData();
  body.append('file', new Blob([content], { type: 'application/zip' }), 'data.zip');
  const up = await fetch(uploadUrl, { method: 'POST', body });
  t.is(up.status, 201);
  // The answer's URL is under FORMLOOM_PUBLIC_URL (port 0 here): the path is fetched from the app itself.
  const url = `${app.url}${new URL(((await up.json()) as { url: string }).url).pathname}`;
  const stored = s3.objects(prefix);
  t.is(stored.length, 1, 'the file is an object of the bucket');
  t.is(stored[0]!.size, content.length);
  t.is(`${app.url}/api/v1/public/${stored[0]!.key}`, url);
  t.false(existsSync(join(dir, 'blobs')), 'nothing went to the data dir');

  // The owner's key opens the file (docs/security.md "Uploaded files").
  const owner = { authorization: `Bearer ${api_key}` };
  const down = await fetch(url, { headers: owner });
  t.is(down.status, 200);
  t.is(down.headers.get('content-length'), String(content.length));
  t.is(sha256(new Uint8Array(await down.arrayBuffer())), sha256(content), 'downloaded bytes = uploaded bytes');
  const range = await fetch(url, { headers: { ...owner, range: `bytes=${9 * MiB}-${9 * MiB + 99}` } });
  t.is(range.status, 206);
  t.true(Buffer.from(await range.arrayBuffer()).equals(content.subarray(9 * MiB, 9 * MiB + 100)));

  // Too large (past 12 MiB while it streams): 413, no object and no multipart upload left open.
  const big = new FormData();
  big.append('file', new Blob([randomBytes(13 * MiB)], { type: 'application/zip' }), 'big.zip');
  const refused = await fetch(uploadUrl, { method: 'POST', body: big });
  t.is(refused.status, 413);
  t.is(((await refused.json()) as { error: { reason: string } }).error.reason, 'file_too_large');
  t.is(s3.objects(prefix).length, 1);
  t.is(s3.openUploads(prefix), 0);

  // A client gone after 9 MiB, while the store's multipart upload is open: it is aborted.
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 120_000;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return done();
  };
  let wasOpen = false;
  await cutUpload(uploadUrl, 11 * MiB, 9 * MiB, async () => {
    wasOpen = await until(() => s3.openUploads(prefix) === 1);
  });
  t.true(wasOpen, 'the multipart upload was under way when the client went');
  t.true(await until(() => s3.openUploads(prefix) === 0), 'no multipart upload left open');
  t.deepEqual(s3.objects(prefix).map((o) => o.size), [content.length], 'only the first file is in the bucket');
});
