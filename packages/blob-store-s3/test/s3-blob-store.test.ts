import { runBlobStoreConformance } from '@formloom/core/testing';
import test from 'ava';
import { createS3BlobStore, type S3BlobStore } from '../src';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../src/testing';

let server: TestS3Server | undefined;
const MiB = 1024 * 1024;

const storeOn = (s: TestS3Server, extra: { prefix?: string; partBytes?: number; bucket?: string } = {}): S3BlobStore =>
  createS3BlobStore({ bucket: s.bucket, endpoint: s.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS, ...extra });

runBlobStoreConformance(test, {
  name: 's3 blob store',
  streams: true,
  async create() {
    server = await startS3Server();
    const store = storeOn(server, { partBytes: 5 * MiB });
    return { store, close: async () => (store.close(), await server!.close()) };
  },
});

/** `n` bytes of a pattern. A plain loop: `Uint8Array.from({ length }, fn)` took 0.7 CPU-seconds for each 12 MiB. */
const bytes = (n: number, seed: number) => {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) out[i] = (i * 13 + seed) & 0xff;
  return out;
};
async function* pieces(data: Buffer, size: number, failAfter = Infinity) {
  for (let at = 0, n = 0; at < data.length; at += size, n++) {
    if (n >= failAfter) throw new Error('source failed');
    yield data.subarray(at, at + size);
  }
}

test('s3 blob store: a stream bigger than a part goes up as a multipart upload and reads back whole', async (t) => {
  const store = storeOn(server!, { partBytes: 5 * MiB, prefix: 'multi/' });
  t.teardown(() => store.close());
  const data = bytes(12 * MiB + 5, 4);
  t.deepEqual(await store.streams!.putStream('big/a.wav', pieces(data, 256 * 1024), 'audio/wav'), { size: data.length });
  const read = await store.streams!.getStream('big/a.wav');
  t.like(read, { size: data.length, contentType: 'audio/wav' });
  const parts: Buffer[] = [];
  for await (const part of read!.body) parts.push(Buffer.from(part));
  t.true(Buffer.concat(parts).equals(data));
  t.is(server!.openUploads('multi/'), 0, 'the multipart upload was completed');
  t.is(await store.deletePrefix('big/'), 1);
});

test('s3 blob store: a stream that fails after the first part stores nothing', async (t) => {
  const store = storeOn(server!, { partBytes: 5 * MiB, prefix: 'failing/' });
  t.teardown(() => store.close());
  await store.put('x/a', bytes(100, 1), 'text/plain');
  await t.throwsAsync(store.streams!.putStream('x/a', pieces(bytes(12 * MiB, 2), MiB, 7), 'audio/wav'), { message: 'source failed' });
  const got = await store.get('x/a');
  t.true(Buffer.from(got!.data).equals(bytes(100, 1)), 'the previous object stays');
  t.is(got?.contentType, 'text/plain');
  t.is(server!.openUploads('failing/'), 0, 'the multipart upload begun was aborted');
});

test('s3 blob store: a prefix keeps the store to its part of the bucket; two stores on one bucket share blobs', async (t) => {
  const [a, b, other] = [storeOn(server!, { prefix: 'tenant/' }), storeOn(server!, { prefix: 'tenant/' }), storeOn(server!, { prefix: 'other/' })];
  t.teardown(() => [a, b, other].forEach((s) => s.close()));
  await a.put('uploads/frm_1/f.txt', Buffer.from('from A'), 'text/plain');
  t.is(Buffer.from((await b.get('uploads/frm_1/f.txt'))!.data).toString(), 'from A', 'a second instance reads it');
  t.is(await other.get('uploads/frm_1/f.txt'), null);
  t.is(await other.deletePrefix('uploads/'), 0);
  t.is(await b.deletePrefix('uploads/'), 1);
  t.is(await a.get('uploads/frm_1/f.txt'), null);
});

test('s3 blob store: deletePrefix pages through more than one listing', async (t) => {
  const store = storeOn(server!, { prefix: 'paged/' });
  t.teardown(() => store.close());
  for (let i = 0; i < 1005; i += 67) await Promise.all(Array.from({ length: Math.min(67, 1005 - i) }, (_, j) => store.put(`f/${i + j}`, bytes(1, 0), 'text/plain')));
  t.is(await store.deletePrefix('f/'), 1005);
  t.is(await store.deletePrefix('f/'), 0);
});

test('s3 blob store: verify() names the bucket and the variables to check', async (t) => {
  const good = storeOn(server!);
  await t.notThrowsAsync(good.verify());
  good.close();
  const missing = storeOn(server!, { bucket: 'no-such-bucket' });
  t.teardown(() => missing.close());
  await t.throwsAsync(missing.verify(), { message: /^The S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be used: it does not exist\. Check FORMLOOM_S3_BUCKET/ });
  t.throws(() => createS3BlobStore({ bucket: '' }), { message: /FORMLOOM_S3_BUCKET/ });
  t.throws(() => createS3BlobStore({ bucket: 'b', partBytes: 1024 }), { message: /at least 5242880 bytes/ });
});
