import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT } from './packed-host';

/*
 * The guides' code for a host (docs/embedding.md's smallest host, docs/workspace.md's builder in your own page)
 * imports Formloom packages: installing from the packed packages needs each one's tarball, so the guide must
 * name it (it once left out @formloom/workspace). packed.test.ts installs the main line and runs the host.
 */
const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');
const section = (text: string, heading: string) => {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no "${heading}"`);
  const end = text.indexOf('\n## ', start + heading.length + 2);
  return text.slice(start, end < 0 ? undefined : end);
};
const imported = (code: string) => [...code.matchAll(/(?:require\(|from )'(@formloom\/[a-z-]+)'/g)].map((m) => m[1]!);

test('every @formloom package the host guides import has its tarball named in docs/embedding.md', (t) => {
  const embedding = doc('embedding.md');
  const code = section(embedding, '## The smallest host') + section(doc('workspace.md'), '## In your own page');
  const packages = [...new Set(imported(code))].sort();
  t.true(packages.includes('@formloom/workspace') && packages.includes('@formloom/express'), packages.join(', '));
  const tarballs = new Set([...embedding.matchAll(/\.\/(formloom-[a-z-]+-\d+\.\d+\.\d+\.tgz)/g)].map((m) => m[1]));
  for (const name of packages) {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages', name.slice('@formloom/'.length), 'package.json'), 'utf8')) as { version: string };
    t.true(tarballs.has(`${name.slice(1).replace('/', '-')}-${version}.tgz`), `${name} is named`);
  }
});
