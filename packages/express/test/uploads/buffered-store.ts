import test from '../helpers/bounded-test';
import type { BlobStore } from '@formloom/core';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually, fileLink, memoryGrowth, streamDownload, streamUpload, streamUploadInChild, uploadForm } from '../helpers/stream-upload';

/*
 * A blob store without the `streams` capability (only put, get and deletePrefix, as a host may write one) keeps
 * working: uploads are gathered and stored whole, downloads come from `get`. It also shows what the streaming
 * tests' memory bounds would catch.
 */

const MiB = 1024 * 1024;

/** The smallest store the port allows: blobs in a Map, no `streams`. */
function minimalStore() {
  const blobs = new Map<string, { data: Uint8Array; contentType: string }>();
  let puts = 0;
  const store: BlobStore = {
    async put(key, data, contentType) {
      puts++;
      blobs.set(key, { data: data.slice(), contentType });
    },
    async get(key) {
      return blobs.get(key) ?? null;
    },
    async deletePrefix(prefix) {
      const gone = [...blobs.keys()].filter((k) => k.startsWith(prefix));
      for (const k of gone) blobs.delete(k);
      return gone.length;
    },
  };
  return { store, blobs, puts: () => puts };
}

const uploadRows = async (app: TestApp, formId: string) => Number((await app.raw(`SELECT COUNT(*) AS n FROM uploads WHERE form_id = '${formId}'`))[0].n);

const minimal = minimalStore();
let app: TestApp | undefined;
const get = async () => (app ??= await startTestApp('sqlite', { blobStore: minimal.store, rateLimits: false }));
test.after.always(async () => app?.close());

test.serial('a store without streams: upload, download (and a byte range) give the same bytes', async (t) => {
  const app = await get();
  t.is(minimal.store.streams, undefined);
  const form = await uploadForm(app);
  const up = await streamUpload(app, form, 3 * MiB + 17);
  t.is(up.status, 201, JSON.stringify(up.body));
  t.is(minimal.blobs.size, 1);
  const down = await streamDownload(fileLink(app, up.body.url));
  t.is(down.status, 200);
  t.is(down.size, 3 * MiB + 17);
  t.is(down.sha256, up.sha256);
  const stored = [...minimal.blobs.values()][0]!.data;
  const range = await fetch(fileLink(app, up.body.url), { headers: { range: 'bytes=100-199' } });
  t.is(range.status, 206);
  t.true(Buffer.from(await range.arrayBuffer()).equals(Buffer.from(stored.subarray(100, 200))));
});

test.serial('a store without streams: too large, or a client gone mid-upload, stores nothing', async (t) => {
  const app = await get();
  const form = await uploadForm(app, 1);
  const puts = minimal.puts();
  const big = await streamUpload(app, form, 2 * MiB);
  t.is(big.status, 413);
  t.like(big.body.error, { code: 'PAYLOAD_TOO_LARGE', reason: 'file_too_large' });
  const cut = await streamUpload(app, form, MiB - 1, {
    cutAfter: MiB / 2,
    beforeCut: async () => {
      await eventually(async () => (await uploadRows(app, form.id)) === 1);
    },
  });
  t.is(cut.status, 0);
  t.true(await eventually(async () => (await uploadRows(app, form.id)) === 0));
  t.is(minimal.puts(), puts, 'put was never called');
  t.false([...minimal.blobs.keys()].some((k) => k.startsWith(`uploads/${form.id}/`)));
});

test.serial('a store without streams holds the whole file: the memory measure of the streaming tests sees it', async (t) => {
  const app = await get();
  const form = await uploadForm(app);
  t.is((await streamUploadInChild(app, form, 2 * MiB)).status, 201);
  const up = await memoryGrowth(() => streamUploadInChild(app, form, 20 * MiB));
  t.is(up.result.status, 201);
  t.log(`buffered upload of 20 MiB: RSS rose by ${(up.rss / MiB).toFixed(1)} MiB, memory in use by ${(up.inUse / MiB).toFixed(1)} MiB`);
  // The streaming tests require less than 5 MiB more in use; here the file is held whole (about 20 MiB: the pieces,
  // then their concatenation, which the store's Map keeps).
  t.true(up.inUse > 10 * MiB, `memory in use rose by ${(up.inUse / MiB).toFixed(1)} MiB`);
});
