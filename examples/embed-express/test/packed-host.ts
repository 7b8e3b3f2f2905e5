import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

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

/** The named packages and every @formloom package they depend on (what their install needs). */
export function closure(names: string[]): string[] {
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
  return [...seen];
}

export interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/**
 * The files at the checkout's root and at the root of each package folder, git-ignored ones included: where
 * `npm pack` and the packages' prepack and postpack scripts write (a LICENSE copy, a tarball). `npm pack` must
 * leave them as they were. Not `git status` of the whole tree: it misses ignored files, and it changes under
 * whoever edits the checkout while the pack runs.
 */
export function packWrites(): string[] {
  const dirs = [ROOT, ...readdirSync(join(ROOT, 'packages')).map((folder) => join(ROOT, 'packages', folder))];
  return dirs.flatMap((dir) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(ROOT, join(dir, e.name)))).sort();
}

const run = promisify(execFile);

/**
 * Packs `names` (each package's prepack builds it) into a new folder; what `npm pack` reported. Asynchronous,
 * like the install: a test worker blocked for a minute could not tell AVA that it is still alive.
 */
export async function pack<T = undefined>(names: string[], snapshot?: () => T): Promise<{ dir: string; packed: Packed[]; before?: T; after?: T }> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-packed-'));
  const all = workspacePackages();
  // `npm pack` writes into the packages' folders while it runs (prepack copies LICENSE, postpack removes it):
  // test files that pack run in parallel, so each pack and the snapshots of the checkout around it hold a lock.
  return withPackLock(async () => {
    const before = snapshot?.();
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir, ...names.flatMap((n) => ['-w', all.get(n)!.dir])], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return { dir, packed: JSON.parse(stdout) as Packed[], before, after: snapshot?.() };
  });
}

const PACK_LOCK = join(ROOT, 'node_modules', '.formloom-pack-lock');

/** Runs `fn` while no other test process packs this checkout (a directory made atomically is the lock). */
async function withPackLock<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(PACK_LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a killed run (no pack takes ten minutes) is taken over.
      try {
        if (Date.now() - statSync(PACK_LOCK).mtimeMs > 600_000) rmSync(PACK_LOCK, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      if (Date.now() > deadline) throw new Error(`npm pack waited 10 minutes for ${PACK_LOCK}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(PACK_LOCK, { recursive: true, force: true });
  }
}

/**
 * An empty app folder that runs `npm install <args>` exactly as a user would: the tarballs are copied in
 * and installed by npm (extracted, their declared dependencies resolved from the registry or npm's cache),
 * nothing linked from this checkout. Returns the app folder.
 */
export async function installApp(dir: string, tarballs: string[], args: string[]): Promise<string> {
  const app = join(dir, 'app');
  mkdirSync(app);
  for (const t of tarballs) copyFileSync(join(dir, t), join(app, t));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'packed-host', version: '1.0.0', private: true }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...args], { cwd: app, encoding: 'utf8', timeout: 300_000 });
  return app;
}
