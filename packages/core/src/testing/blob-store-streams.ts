import type { BlobReadStream, BlobStore, BlobStreams } from '../ports/blob-store';
import { bytes, same, type BlobTest } from './blob-test-data';

/** Pieces of `data` of `size` bytes (the last one shorter), as a stream source would yield them. */
async function* pieces(data: Uint8Array, size: number, failAfter = Infinity): AsyncGenerator<Uint8Array> {
  let given = 0;
  for (let at = 0; at < data.length; at += size) {
    if (given++ >= failAfter) throw new Error('source failed');
    yield data.subarray(at, Math.min(at + size, data.length));
  }
}

/** Every byte of a read stream, and how many pieces it came in. */
async function drain(read: BlobReadStream): Promise<{ data: Uint8Array; pieces: number }> {
  const parts: Uint8Array[] = [];
  for await (const part of read.body) parts.push(part);
  return { data: new Uint8Array(Buffer.concat(parts)), pieces: parts.length };
}

const streamsOf = (store: BlobStore): BlobStreams => {
  if (!store.streams) throw new Error('The store declares no streams capability');
  return store.streams;
};

/** The `streams` capability's tests, registered by `runBlobStoreConformance` for a store that declares it. */
export function runBlobStreamConformance(blobTest: BlobTest): void {
  blobTest('streams: putStream then getStream and get give the same bytes; a missing key is null', async (t, store, dir) => {
    const s = streamsOf(store);
    // 3 MiB in 64 KiB pieces: more than one piece of any store's own chunking.
    const data = bytes(3 * 1024 * 1024 + 17, 5);
    t.deepEqual(await s.putStream(`${dir}big.bin`, pieces(data, 64 * 1024), 'audio/wav'), { size: data.length });
    const read = await s.getStream(`${dir}big.bin`);
    t.is(read?.contentType, 'audio/wav');
    t.is(read?.size, data.length);
    const got = await drain(read!);
    t.true(same(got.data, data), 'every byte, in order');
    t.true(got.pieces > 1, 'a big blob comes in pieces');
    t.true(same((await store.get(`${dir}big.bin`))?.data, data), 'get reads what putStream stored');
    t.is(await s.getStream(`${dir}missing.bin`), null);
    t.is(await s.getStream(`${dir}nested/missing.bin`), null);
  });

  blobTest('streams: an empty stream stores an empty blob; getStream reads what put stored', async (t, store, dir) => {
    const s = streamsOf(store);
    t.deepEqual(await s.putStream(`${dir}empty`, pieces(new Uint8Array(0), 10), 'text/plain'), { size: 0 });
    const empty = await s.getStream(`${dir}empty`);
    t.like(empty, { size: 0, contentType: 'text/plain' });
    t.is((await drain(empty!)).data.length, 0);
    await store.put(`${dir}small`, bytes(1000, 3), 'image/png');
    const small = await s.getStream(`${dir}small`);
    t.like(small, { size: 1000, contentType: 'image/png' });
    t.true(same((await drain(small!)).data, bytes(1000, 3)));
    t.is(await store.deletePrefix(dir), 2, 'streamed blobs are deleted like the others');
  });

  blobTest('streams: a source that fails stores nothing and leaves the previous blob', async (t, store, dir) => {
    const s = streamsOf(store);
    const data = bytes(2 * 1024 * 1024, 9);
    await t.throwsAsync(s.putStream(`${dir}new`, pieces(data, 128 * 1024, 10), 'audio/mpeg'), { message: 'source failed' });
    t.is(await store.get(`${dir}new`), null, 'no blob, not even part of one');
    await store.put(`${dir}old`, bytes(10, 1), 'text/plain');
    await t.throwsAsync(s.putStream(`${dir}old`, pieces(data, 128 * 1024, 10), 'audio/mpeg'), { message: 'source failed' });
    const old = await store.get(`${dir}old`);
    t.true(same(old?.data, bytes(10, 1)), 'the previous blob stays whole');
    t.is(old?.contentType, 'text/plain');
    t.is(await store.deletePrefix(dir), 1, 'a failed stream left nothing behind to count');
  });

  blobTest('streams: putStream replaces a blob; a reader that stops early releases the read', async (t, store, dir) => {
    const s = streamsOf(store);
    await store.put(`${dir}k`, bytes(5000, 1), 'image/png');
    await s.putStream(`${dir}k`, pieces(bytes(2 * 1024 * 1024, 2), 256 * 1024), 'audio/ogg');
    // Many reads left after their first piece: a store that held a connection or file per read would run out.
    for (let i = 0; i < 30; i++) {
      const read = await s.getStream(`${dir}k`);
      for await (const part of read!.body) {
        t.true(part.length > 0);
        break;
      }
    }
    const got = await store.get(`${dir}k`);
    t.true(same(got?.data, bytes(2 * 1024 * 1024, 2)));
    t.is(got?.contentType, 'audio/ogg');
  });

  blobTest('streams: invalid keys are refused before the source is read', async (t, store, dir) => {
    const s = streamsOf(store);
    for (const key of ['', '../escape', `${dir}a//b`, `${dir}..`, '/absolute', `${dir}nul\u0000x`]) {
      let pulled = false;
      const source = (async function* () {
        pulled = true;
        yield bytes(1);
      })();
      await t.throwsAsync(s.putStream(key, source, 'text/plain'), undefined, `putStream ${JSON.stringify(key)}`);
      t.false(pulled, `putStream ${JSON.stringify(key)} read nothing`);
      await t.throwsAsync(s.getStream(key), undefined, `getStream ${JSON.stringify(key)}`);
    }
  });

  blobTest('streams: concurrent putStreams of one key leave one whole blob', async (t, store, dir) => {
    const s = streamsOf(store);
    const versions = Array.from({ length: 4 }, (_, i) => bytes(700_000 + i * 1000, i));
    await Promise.all(versions.map((data) => s.putStream(`${dir}race`, pieces(data, 100_000), 'application/octet-stream')));
    const got = await drain((await s.getStream(`${dir}race`))!);
    t.true(versions.some((v) => same(got.data, v)), 'exactly one of the written blobs, whole');
  });
}
