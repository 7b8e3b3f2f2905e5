import { runBlobStoreConformance } from '@formloom/core/testing';
import test from 'ava';
import { createDataSource, createPostgresBlobStore } from '../../src';
import { createTestDatabase, type TestDatabase } from '../../src/testing';

let db: TestDatabase | undefined;

runBlobStoreConformance(test, {
  name: 'postgres blob store',
  streams: true,
  async create() {
    db = await createTestDatabase('postgres', { poolSize: 8 });
    return { store: createPostgresBlobStore(db.dataSource), close: () => db!.close() };
  },
});

const bytes = (n: number, seed: number) => Buffer.from(Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff));

test('postgres blob store: a blob is stored in pieces of chunkBytes, and a deletion leaves no piece behind', async (t) => {
  const store = createPostgresBlobStore(db!.dataSource, { chunkBytes: 1000 });
  await store.put('pieces/a', bytes(4500, 1), 'application/pdf');
  const rows = await db!.raw(`SELECT c.seq, length(c.data) AS n FROM blob_chunks c JOIN blobs b ON b.blob_id = c.blob_id WHERE b.key = $1 ORDER BY c.seq`, ['pieces/a']);
  t.deepEqual(rows.map((r) => [r.seq, r.n]), [[0, 1000], [1, 1000], [2, 1000], [3, 1000], [4, 500]]);
  await store.put('pieces/a', bytes(10, 2), 'text/plain');
  await store.deletePrefix('pieces/');
  const left = await db!.raw(`SELECT count(*)::int AS n FROM blob_chunks WHERE blob_id NOT IN (SELECT blob_id FROM blobs)`);
  t.is(left[0].n, 0, 'replaced and deleted blobs left no pieces');
});

test('postgres blob store: a stream reads piece by piece; a blob deleted part-way fails the rest, never mixes', async (t) => {
  const store = createPostgresBlobStore(db!.dataSource, { chunkBytes: 64 * 1024 });
  const data = bytes(1024 * 1024, 3);
  await store.put('lazy/a', data, 'audio/wav');
  const read = await store.streams!.getStream('lazy/a');
  const it = read!.body[Symbol.asyncIterator]();
  const first = await it.next();
  t.deepEqual(Buffer.from(first.value!), data.subarray(0, 64 * 1024));
  // Had the read taken every piece up front, it would go on to the end now.
  await store.deletePrefix('lazy/');
  const err = await t.throwsAsync(async () => {
    for (let r = await it.next(); !r.done; r = await it.next());
  });
  t.regex(err!.message, /was replaced or deleted while it was read/);
});

test('postgres blob store: two stores on one database (two instances) see each other\'s blobs', async (t) => {
  const other = await createTestDatabase('postgres', { poolSize: 2 });
  t.teardown(() => other.close());
  // A second data source on the same schema, as a second instance would open.
  const second = await createDataSource(db!.url, { poolSize: 2 }).initialize();
  t.teardown(() => second.destroy());
  await createPostgresBlobStore(db!.dataSource).put('shared/a.txt', Buffer.from('from A'), 'text/plain');
  const got = await createPostgresBlobStore(second).get('shared/a.txt');
  t.is(Buffer.from(got!.data).toString(), 'from A');
  t.is(await createPostgresBlobStore(other.dataSource).get('shared/a.txt'), null, 'another database does not');
});

test('postgres blob store: refuses a SQLite data source', async (t) => {
  const sqlite = await createTestDatabase('sqlite');
  t.teardown(() => sqlite.close());
  t.throws(() => createPostgresBlobStore(sqlite.dataSource), { message: /needs a PostgreSQL data source/ });
});
