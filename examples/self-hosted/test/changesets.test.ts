import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import test from 'ava';

/**
 * The release notes come from `.changeset/*.md` (docs/architecture.md): `changeset version` refuses the whole set
 * when one file names a package that does not exist or mixes packages it ignores (the apps) with released ones,
 * so each file is checked here rather than at release time.
 */

const ROOT = resolve(__dirname, '../../../..');
const DIR = join(ROOT, '.changeset');

interface Changeset {
  file: string;
  packages: string[];
}

function changesets(): Changeset[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((file) => {
      const text = readFileSync(join(DIR, file), 'utf8');
      const head = /^---\n([\s\S]*?)\n?---\n/.exec(text);
      if (!head) throw new Error(`.changeset/${file} has no front matter`);
      const packages = head[1]!
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => {
          // YAML: the name in double quotes, single quotes or none.
          const m = /^(?:"([^"]+)"|'([^']+)'|([^\s:'"]+)):\s*(major|minor|patch)\s*$/.exec(l.trim());
          if (!m) throw new Error(`.changeset/${file}: "${l}" is not "<package>": major|minor|patch`);
          return (m[1] ?? m[2] ?? m[3])!;
        });
      return { file, packages };
    });
}

function workspacePackages(): Set<string> {
  const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  return new Set(workspaces.map((w) => (JSON.parse(readFileSync(join(ROOT, w, 'package.json'), 'utf8')) as { name: string }).name));
}

test('every changeset names existing packages and never mixes the ignored apps with released packages', (t) => {
  const { ignore } = JSON.parse(readFileSync(join(DIR, 'config.json'), 'utf8')) as { ignore: string[] };
  const known = workspacePackages();
  const all = changesets();
  t.true(all.length > 0);
  for (const { file, packages } of all) {
    for (const name of packages) t.true(known.has(name), `.changeset/${file} names ${name}, which is no workspace package`);
    const ignored = packages.filter((p) => ignore.includes(p));
    t.true(ignored.length === 0 || ignored.length === packages.length, `.changeset/${file} mixes ${ignored.join(', ')} with released packages`);
  }
});
