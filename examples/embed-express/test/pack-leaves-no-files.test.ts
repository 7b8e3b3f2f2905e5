import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { pack, ROOT } from './packed-host';

/**
 * `npm pack` copies the root LICENSE into each package for the tarball (prepack): the copy is git-ignored, so
 * `git status` did not show the files it left in the checkout: they are looked for here.
 */
const leftovers = () =>
  readdirSync(join(ROOT, 'packages'))
    .map((folder) => `packages/${folder}/LICENSE`)
    .filter((file) => existsSync(join(ROOT, file)));

test('npm pack puts the LICENSE in each tarball and leaves no file in the checkout', async (t) => {
  t.timeout(300_000);
  const { dir, packed, before, after } = await pack(['@formloom/core', '@formloom/webhook-http'], leftovers);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const p of packed) t.true(p.files.some((f) => f.path === 'LICENSE'), `${p.name} has its LICENSE`);
  t.deepEqual(after, before);
  t.deepEqual(before, [], 'no copy was left by an earlier pack either');
});
