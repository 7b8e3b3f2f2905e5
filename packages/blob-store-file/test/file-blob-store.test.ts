import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBlobStoreConformance } from '@formloom/core/testing';
import test from 'ava';
import { createFileBlobStore } from '../src';

/** The store's root sits in a parent of its own, so a test can see that nothing was written beside it. */
let parent: string | undefined;

runBlobStoreConformance(test, {
  name: 'file blob store',
  streams: true,
  async create() {
    parent = await mkdtemp(join(tmpdir(), 'formloom-blobs-'));
    return {
      store: createFileBlobStore(join(parent, 'blobs')),
      close: () => rm(parent!, { recursive: true, force: true }),
    };
  },
});

test.after('file blob store: nothing was written outside the root', async (t) => {
  t.deepEqual(await readdir(parent!), ['blobs']);
});

test('file blob store: a second store on the same root reads what the first wrote', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'formloom-blobs-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await createFileBlobStore(root).put('uploads/frm_1/a.txt', new TextEncoder().encode('hello'), 'text/plain');
  const got = await createFileBlobStore(root).get('uploads/frm_1/a.txt');
  t.is(new TextDecoder().decode(got?.data), 'hello');
  t.is(got?.contentType, 'text/plain');
});

test('file blob store: a failed streamed write leaves no folder it made; folders holding other blobs stay', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'formloom-blobs-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const store = createFileBlobStore(root);
  await store.put('uploads/frm_1/keep/a.txt', new TextEncoder().encode('kept'), 'text/plain');
  const failing = async function* () {
    yield new TextEncoder().encode('half');
    throw new Error('client gone');
  };
  await t.throwsAsync(store.streams!.putStream('uploads/frm_1/tok/deep/b.bin', failing(), 'application/zip'), { message: 'client gone' });
  await t.throwsAsync(store.streams!.putStream('uploads/frm_2/tok/c.bin', failing(), 'application/zip'), { message: 'client gone' });
  t.deepEqual((await readdir(join(root, 'uploads'))).sort(), ['frm_1']);
  t.deepEqual(await readdir(join(root, 'uploads', 'frm_1')), ['keep']);
  t.is(new TextDecoder().decode((await store.get('uploads/frm_1/keep/a.txt'))?.data), 'kept');
});
