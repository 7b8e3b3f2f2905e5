import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createFileBlobStore } from '../src';

async function root(t: { teardown(fn: () => Promise<void>): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-blobs-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'blobs');
}

test('file blob store: folders are owner-only (0700), blob and type files 0600', async (t) => {
  const base = await root(t);
  const blobs = createFileBlobStore(base);
  await blobs.put('uploads/frm_1/abc/cv.pdf', new TextEncoder().encode('%PDF-1.4'), 'application/pdf');
  for (const d of [base, join(base, 'uploads'), join(base, 'uploads', 'frm_1'), join(base, 'uploads', 'frm_1', 'abc')]) {
    t.is((await stat(d)).mode & 0o777, 0o700, d);
  }
  const dir = join(base, 'uploads', 'frm_1', 'abc');
  t.deepEqual((await readdir(dir)).sort(), ['cv.pdf', 'cv.pdf.type']);
  for (const f of ['cv.pdf', 'cv.pdf.type']) t.is((await stat(join(dir, f))).mode & 0o777, 0o600, f);
  const got = await blobs.get('uploads/frm_1/abc/cv.pdf');
  t.is(got?.contentType, 'application/pdf');
  t.is(new TextDecoder().decode(got!.data), '%PDF-1.4');
  t.is(await blobs.deletePrefix('uploads/frm_1/'), 1);
  t.is(await blobs.get('uploads/frm_1/abc/cv.pdf'), null);
});
