import { randomBytes } from 'node:crypto';
import type { ExecutionContext, TestFn } from 'ava';
import type { BlobStore } from '../ports/blob-store';
import { runBlobStreamConformance } from './blob-store-streams';
import { bytes, same, type BlobTest } from './blob-test-data';

export interface BlobStoreHarnessInstance {
  store: BlobStore;
  close(): Promise<void>;
}

export interface BlobStoreHarness {
  /** Prefix of every test title. */
  name: string;
  /** Called once per test file; every test then uses keys of its own. */
  create(): Promise<BlobStoreHarnessInstance>;
  /** The store declares `streams`: its streaming tests run too (`runBlobStreamConformance`). */
  streams?: boolean;
}

/**
 * Registers the BlobStore port's conformance tests on `test` (ava). Every blob store adapter runs them.
 * Each test works in a folder of its own (`t/<random>/`), so tests run concurrently on one store.
 */
export function runBlobStoreConformance(test: TestFn<any>, harness: BlobStoreHarness): void {
  let instance: BlobStoreHarnessInstance | undefined;
  test.before(async () => {
    instance = await harness.create();
  });
  test.after.always(async () => {
    await instance?.close();
  });
  const blobTest: BlobTest = (title, body) =>
    test(`${harness.name}: ${title}`, async (t) => {
      if (!instance) throw new Error(`The ${harness.name} blob store harness was not created`);
      await body(t, instance.store, `t/${randomBytes(6).toString('hex')}/`);
    });

  if (harness.streams) runBlobStreamConformance(blobTest);
  else blobTest('declares no streaming capability', async (t, store) => {
    t.is(store.streams, undefined);
  });

  blobTest('put then get gives the same bytes and content type; a missing key is null', async (t, store, dir) => {
    const data = bytes(70_000, 7);
    await store.put(`${dir}a.bin`, data, 'application/pdf');
    const got = await store.get(`${dir}a.bin`);
    t.true(same(got?.data, data), 'every byte, 0x00-0xff included');
    t.is(got?.contentType, 'application/pdf');
    t.is(await store.get(`${dir}missing.bin`), null);
    t.is(await store.get(`${dir}nested/missing.bin`), null, 'also under a folder that does not exist');
  });

  blobTest('an empty blob, and keys with spaces, non-ASCII letters or a 300-byte segment, round-trip', async (t, store, dir) => {
    await store.put(`${dir}empty`, new Uint8Array(0), 'text/plain');
    const empty = await store.get(`${dir}empty`);
    t.is(empty?.data.length, 0);
    t.is(empty?.contentType, 'text/plain');
    const key = `${dir}uploads/Résumé final (2).pdf`;
    await store.put(key, bytes(10), 'application/pdf');
    t.true(same((await store.get(key))?.data, bytes(10)));
    // Longer than a file name may be on most file systems (255 bytes): an upload's name can be.
    const long = `${dir}uploads/${'é'.repeat(150)}.pdf`;
    await store.put(long, bytes(20), 'application/pdf');
    t.true(same((await store.get(long))?.data, bytes(20)));
    t.is(await store.get(`${dir}uploads/${'é'.repeat(149)}.pdf`), null);
    t.is(await store.deletePrefix(`${dir}uploads/`), 2);
  });

  blobTest('put replaces the blob and its content type', async (t, store, dir) => {
    await store.put(`${dir}k`, bytes(5000, 1), 'image/png');
    await store.put(`${dir}k`, bytes(12, 2), 'audio/mpeg');
    const got = await store.get(`${dir}k`);
    t.true(same(got?.data, bytes(12, 2)), 'the shorter new blob, nothing of the old one');
    t.is(got?.contentType, 'audio/mpeg');
  });

  blobTest('deletePrefix deletes a folder and counts its blobs; neighbours stay', async (t, store, dir) => {
    const inside = [`${dir}form/1`, `${dir}form/2`, `${dir}form/deep/er/3`];
    const outside = [`${dir}formx/4`, `${dir}other/5`, `${dir}form.bak`];
    for (const key of [...inside, ...outside]) await store.put(key, bytes(3), 'application/octet-stream');
    t.is(await store.deletePrefix(`${dir}form/`), 3);
    for (const key of inside) t.is(await store.get(key), null, key);
    for (const key of outside) t.truthy(await store.get(key), `${key} stays`);
    t.is(await store.deletePrefix(`${dir}form/`), 0, 'nothing left to delete');
    t.is(await store.deletePrefix(`${dir}never/`), 0);
    await store.put(`${dir}form/again`, bytes(4), 'text/plain');
    t.true(same((await store.get(`${dir}form/again`))?.data, bytes(4)), 'the folder can be used again');
  });

  blobTest('invalid keys are refused and touch nothing outside the store', async (t, store, dir) => {
    const invalid = ['', '../escape', `${dir}../../escape`, `${dir}a//b`, './a', `${dir}.`, `${dir}a/..`, `${dir}nul\u0000x`, '/absolute'];
    for (const key of invalid) {
      await t.throwsAsync(store.put(key, bytes(1), 'text/plain'), undefined, `put ${JSON.stringify(key)}`);
      await t.throwsAsync(store.get(key), undefined, `get ${JSON.stringify(key)}`);
    }
    await store.put(`${dir}kept`, bytes(2), 'text/plain');
    for (const prefix of ['', '/', '../', `${dir}../`]) {
      await t.throwsAsync(store.deletePrefix(prefix), undefined, `deletePrefix ${JSON.stringify(prefix)}`);
    }
    t.truthy(await store.get(`${dir}kept`), 'a refused deletePrefix deleted nothing');
  });

  blobTest('concurrent puts of one key leave one whole blob', async (t, store, dir) => {
    const versions = Array.from({ length: 8 }, (_, i) => bytes(50_000 + i * 1000, i));
    await Promise.all(versions.map((data) => store.put(`${dir}race`, data, 'application/octet-stream')));
    const got = await store.get(`${dir}race`);
    t.true(versions.some((v) => same(got?.data, v)), 'exactly one of the written blobs, whole');
  });

  blobTest('a reader never sees part of a blob while it is replaced', async (t, store, dir) => {
    const [first, second] = [bytes(400_000, 1), bytes(600_000, 2)];
    await store.put(`${dir}big`, first, 'application/octet-stream');
    let writing = true;
    const writer = (async () => {
      try {
        for (let i = 0; i < 6; i++) await store.put(`${dir}big`, i % 2 ? first : second, 'application/octet-stream');
      } finally {
        writing = false;
      }
    })();
    let reads = 0;
    while (writing || reads === 0) {
      const got = await store.get(`${dir}big`);
      reads += 1;
      t.true(same(got?.data, first) || same(got?.data, second), `read ${reads} is a whole blob`);
    }
    await writer;
  });
}
