import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import { startTestApp, type DbKind, type TestApp } from '../helpers/app';
import { filesUnder } from '../helpers/raw-http';
import { eventually, fileLink, memoryGrowth, streamDownload, streamUpload, streamUploadInChild, streamDownloadInChild, uploadForm } from '../helpers/stream-upload';

/*
 * Uploads and downloads stream through the blob store, on SQLite with the file store and on PostgreSQL with
 * the blobs in the database. The tests of one app run one at a time: the memory measurements need a quiet process.
 */

const MiB = 1024 * 1024;
const BIG = 20 * MiB;

const setups: Array<{ kind: DbKind; blobs: 'file' | 'postgres' }> = [
  { kind: 'sqlite', blobs: 'file' },
  { kind: 'postgres', blobs: 'postgres' },
];

const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;

/**
 * A 20 MiB file went through without the server holding it. Measured on the development machine: streamed, the
 * server's RSS rose by 0-2.6 MiB and the memory in use by at most 0.8 MiB; through a store without `streams`
 * (uploads/buffered-store.ts) the memory in use rises by 20 MiB and the RSS by up to 40 MiB (less when the
 * allocator still has the memory of an earlier file). Generous bounds, far from both.
 */
function assertStreamed(t: import('ava').ExecutionContext, growth: { rss: number; inUse: number }) {
  t.true(growth.rss < BIG / 2, `RSS rose by ${mib(growth.rss)}`);
  t.true(growth.inUse < BIG / 4, `memory in use rose by ${mib(growth.inUse)}`);
}

async function uploadRows(app: TestApp, formId: string) {
  const [row] = await app.raw(`SELECT COUNT(*) AS n FROM uploads WHERE form_id = '${formId}'`);
  return Number(row.n);
}

/** The form's stored blobs: files under the store's folder, or rows of the blobs table (committed ones). */
async function storedBlobs(app: TestApp, blobs: 'file' | 'postgres', formId: string): Promise<number> {
  if (blobs === 'file') {
    const dir = join(app.blobDir, 'uploads', formId);
    return existsSync(dir) ? filesUnder(dir).length : 0;
  }
  const [row] = await app.raw(`SELECT COUNT(*) AS n FROM blobs WHERE key LIKE 'uploads/${formId}/%'`);
  return Number(row.n);
}

/** Pieces of blobs in the database, whoever they belong to (PostgreSQL store only). */
async function chunkRows(app: TestApp) {
  const [row] = await app.raw('SELECT COUNT(*) AS n FROM blob_chunks');
  return Number(row.n);
}

for (const { kind, blobs } of setups) {
  let app: TestApp | undefined;
  const get = async () => (app ??= await startTestApp(kind, { blobStore: blobs, rateLimits: false }));
  test.after.always(async () => app?.close());
  const it = (title: string, fn: (t: import('ava').ExecutionContext, app: TestApp) => Promise<void>) =>
    test.serial(`[${kind} + ${blobs} blobs] ${title}`, async (t) => fn(t, await get()));

  it('a 20 MiB upload streams into the store and back: memory stays far below the file size, the bytes are the same', async (t, app) => {
    const form = await uploadForm(app);
    // The client runs in a process of its own: only the server's memory is measured. A smaller file first warms
    // up the code paths and the allocator.
    t.is((await streamUploadInChild(app, form, 2 * MiB)).status, 201);

    const up = await memoryGrowth(() => streamUploadInChild(app, form, BIG));
    t.is(up.result.status, 201, JSON.stringify(up.result.body));
    t.log(`upload of ${BIG / MiB} MiB: RSS rose by ${mib(up.rss)}, memory in use by ${mib(up.inUse)}`);
    assertStreamed(t, up);
    const [row] = await app.raw(`SELECT size FROM uploads WHERE form_id = '${form.id}' ORDER BY size DESC`);
    t.is(Number(row.size), BIG, 'the recorded size is the streamed size');

    const down = await memoryGrowth(() => streamDownloadInChild(fileLink(app, up.result.body.url)));
    t.log(`download of ${BIG / MiB} MiB: RSS rose by ${mib(down.rss)}, memory in use by ${mib(down.inUse)}`);
    t.is(down.result.status, 200);
    t.is(down.result.headers['content-length'], String(BIG));
    t.is(down.result.headers['accept-ranges'], 'bytes');
    t.is(down.result.size, BIG);
    t.is(down.result.sha256, up.result.sha256, 'downloaded bytes = uploaded bytes');
    assertStreamed(t, down);
  });

  it('a client gone mid-upload leaves no blob and no upload row', async (t, app) => {
    const form = await uploadForm(app);
    const chunksBefore = blobs === 'postgres' ? await chunkRows(app) : 0;
    let rowSeen = false;
    const cut = await streamUpload(app, form, BIG, {
      cutAfter: 4 * MiB,
      // The server is storing: the upload is recorded before its first byte goes to the store.
      beforeCut: async () => {
        rowSeen = await eventually(async () => (await uploadRows(app, form.id)) === 1);
      },
    });
    t.true(rowSeen, 'the upload was under way when the client went');
    t.is(cut.status, 0);
    t.true(await eventually(async () => (await uploadRows(app, form.id)) === 0), 'the upload row is deleted');
    t.is(await storedBlobs(app, blobs, form.id), 0, 'no blob');
    if (blobs === 'file') t.false(existsSync(join(app.blobDir, 'uploads', form.id)), 'not even an empty folder');
    if (blobs === 'postgres') t.is(await chunkRows(app), chunksBefore, 'no piece of it in blob_chunks');
    const next = await streamUpload(app, form, 1000);
    t.is(next.status, 201, 'the server still takes uploads');
  });

  if (blobs === 'file') {
    it('a client that stops a download part-way: the blob file the read opened is closed', async (t, app) => {
      const form = await uploadForm(app);
      const up = await streamUpload(app, form, 8 * MiB);
      t.is(up.status, 201);
      // This process's open files under the store's folder (Linux: /proc/self/fd).
      const openBlobs = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(app.blobDir);
          } catch {
            return false; // closed meanwhile
          }
        }).length;
      const controller = new AbortController();
      const res = await fetch(fileLink(app, up.body.url), { signal: controller.signal });
      const reader = res.body!.getReader();
      let got = 0;
      while (got < MiB) got += (await reader.read()).value!.byteLength;
      t.is(openBlobs(), 1, 'the read holds the file open');
      controller.abort();
      await reader.closed.catch(() => undefined);
      t.true(await eventually(async () => openBlobs() === 0), 'released once the client is gone');
      t.is((await streamDownload(fileLink(app, up.body.url))).sha256, up.sha256, 'and the file still downloads whole');
    });
  }

  it('a file over the question limit is refused with 413 file_too_large while it streams, and nothing is stored', async (t, app) => {
    const form = await uploadForm(app, 1);
    const chunksBefore = blobs === 'postgres' ? await chunkRows(app) : 0;
    const big = await streamUpload(app, form, 3 * MiB);
    t.is(big.status, 413);
    t.like(big.body.error, { code: 'PAYLOAD_TOO_LARGE', status: 413, reason: 'file_too_large' });
    t.is(await uploadRows(app, form.id), 0);
    t.is(await storedBlobs(app, blobs, form.id), 0);
    if (blobs === 'postgres') t.is(await chunkRows(app), chunksBefore);
    t.is((await streamUpload(app, form, MiB)).status, 201, 'exactly the limit is accepted');
  });

  it('a file past what the quota has left is refused with 413 upload_quota_exceeded, and nothing is stored', async (t, app) => {
    const quota = app.formloom.config.uploadQuotaBytes;
    t.teardown(() => {
      app.formloom.config.uploadQuotaBytes = quota;
    });
    app.formloom.config.uploadQuotaBytes = 3 * MiB;
    const form = await uploadForm(app);
    t.is((await streamUpload(app, form, 2 * MiB)).status, 201);
    const over = await streamUpload(app, form, 2 * MiB);
    t.is(over.status, 413);
    t.like(over.body.error, { code: 'PAYLOAD_TOO_LARGE', reason: 'upload_quota_exceeded' });
    t.is(await uploadRows(app, form.id), 1);
    t.is(await storedBlobs(app, blobs, form.id), blobs === 'file' ? 2 : 1, 'only the first file (and its .type file)');
  });

  it('downloads answer single byte ranges with 206 and out-of-range ones with 416', async (t, app) => {
    const form = await uploadForm(app);
    const size = MiB + 12345;
    const data = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 10)) & 0xff));
    const fd = new FormData();
    fd.append('file', new Blob([data], { type: 'application/pdf' }), 'ranges.pdf');
    const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.qid}`, { method: 'POST', body: fd });
    t.is(up.status, 201);
    const url = fileLink(app, ((await up.json()) as { url: string }).url);
    const get = async (range: string, extra: Record<string, string> = {}) => {
      const res = await fetch(url, { headers: { range, ...extra } });
      return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
    };
    // Across the 256 KiB pieces the stores read in.
    const mid = await get('bytes=262000-263000');
    t.is(mid.status, 206);
    t.is(mid.headers.get('content-range'), `bytes 262000-263000/${size}`);
    t.is(mid.headers.get('content-length'), '1001');
    t.true(mid.bytes.equals(data.subarray(262000, 263001)));
    const suffix = await get('bytes=-100');
    t.is(suffix.status, 206);
    t.true(suffix.bytes.equals(data.subarray(size - 100)));
    const open = await get(`bytes=${size - 10}-`);
    t.is(open.headers.get('content-range'), `bytes ${size - 10}-${size - 1}/${size}`);
    t.true(open.bytes.equals(data.subarray(size - 10)));
    const head = await fetch(url, { method: 'HEAD' });
    t.is(head.status, 200);
    t.is(head.headers.get('content-length'), String(size), 'HEAD: the size, not the bytes');
    t.is((await head.arrayBuffer()).byteLength, 0);
    const past = await get(`bytes=${size}-`);
    t.is(past.status, 416);
    t.is(past.headers.get('content-range'), `bytes */${size}`);
    t.like(JSON.parse(past.bytes.toString()).error, { code: 'RANGE_NOT_SATISFIABLE', status: 416 });
    for (const whole of [await get('bytes=0-1,5-9'), await get('bytes=0-9', { 'if-range': '"x"' }), await get('lines=1-2')]) {
      t.is(whole.status, 200, 'several ranges, If-Range or another unit: the whole file');
      t.true(whole.bytes.equals(data));
    }
  });
}
