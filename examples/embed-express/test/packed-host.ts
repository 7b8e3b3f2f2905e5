import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../../..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

/** Every workspace package under packages/, by npm name, with its folder. */
function workspacePackages(): Map<string, { dir: string; manifest: Manifest }> {
  const byName = new Map<string, { dir: string; manifest: Manifest }>();
  for (const folder of readdirSync(join(ROOT, 'packages'))) {
    const dir = join(ROOT, 'packages', folder);
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      byName.set(manifest.name, { dir, manifest });
    } catch {
      // not a package folder
    }
  }
  return byName;
}

/** The named packages and every @formloom package they depend on. */
function closure(names: string[]): string[] {
  const all = workspacePackages();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const pkg = all.get(name);
    if (!pkg) throw new Error(`${name} is not a workspace package`);
    seen.add(name);
    for (const dep of Object.keys(pkg.manifest.dependencies ?? {})) if (dep.startsWith('@formloom/')) visit(dep);
  };
  names.forEach(visit);
  return [...seen].map((n) => all.get(n)!.dir);
}

export interface PackedHost {
  dir: string;
  /** What `npm pack` reported: tarball file names and the files in each. */
  packed: { name: string; filename: string; files: { path: string }[] }[];
}

/**
 * A fresh host app outside the workspace with our packages installed from the tarballs `npm pack` makes
 * (running each package's prepack), as a registry install would lay them out: extracted under
 * node_modules/@formloom. Third-party packages are not downloaded again: the host gets a link to the
 * workspace's copy of each one a packed package declares (plus `hostDeps`), and only those, so an
 * undeclared dependency fails to load here as it would for a user.
 */
export function makePackedHost(packages: string[], hostDeps: string[]): PackedHost {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-packed-'));
  const tgz = join(dir, 'tarballs');
  mkdirSync(tgz);
  const dirs = closure(packages);
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', tgz, ...dirs.flatMap((d) => ['-w', d])], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const packed = JSON.parse(out) as PackedHost['packed'];
  const host = join(dir, 'host');
  const third = new Set(hostDeps);
  for (const p of packed) {
    const target = join(host, 'node_modules', p.name);
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', join(tgz, p.filename), '-C', target, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as Manifest;
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (!dep.startsWith('@formloom/')) third.add(dep);
  }
  for (const dep of third) {
    const link = join(host, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    // npm may keep a package under the workspace that declares it rather than hoist it (altcha-lib).
    const nested = packed.map((q) => join(ROOT, 'packages', q.name.replace('@formloom/', ''), 'node_modules', dep)).find((d) => existsSync(d));
    symlinkSync(existsSync(join(ROOT, 'node_modules', dep)) ? join(ROOT, 'node_modules', dep) : (nested ?? join(ROOT, 'node_modules', dep)), link, 'dir');
  }
  writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'packed-host', private: true }));
  return { dir, packed };
}
