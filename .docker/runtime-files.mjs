// Copies what the runtime image needs into the folder given as argument (docs/docker.md): the root
// manifest and lock file, the production node_modules, and of each workspace its package.json and the
// entries of its "files" list (what `npm pack` would publish: compiled dist/src, assets, bin). Sources,
// tests and their compiled output (dist/test), tsconfig files and build info stay behind.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const [out, flag] = process.argv.slice(2);
if (!out) throw new Error('usage: node .docker/runtime-files.mjs <folder> [--link-node-modules]');
// For the test of this staging (examples/self-hosted/test/docker-files.test.ts): node_modules linked, not copied.
const linkModules = flag === '--link-node-modules';
const root = JSON.parse(readFileSync('package.json', 'utf8'));
mkdirSync(out, { recursive: true });
for (const f of ['package.json', 'package-lock.json']) cpSync(f, join(out, f));
if (linkModules) symlinkSync(join(process.cwd(), 'node_modules'), join(out, 'node_modules'), 'dir');
else cpSync('node_modules', join(out, 'node_modules'), { recursive: true, verbatimSymlinks: true });
for (const ws of root.workspaces) {
  const manifest = JSON.parse(readFileSync(join(ws, 'package.json'), 'utf8'));
  mkdirSync(join(out, ws), { recursive: true });
  cpSync(join(ws, 'package.json'), join(out, ws, 'package.json'));
  for (const entry of manifest.files ?? []) {
    if (existsSync(join(ws, entry))) cpSync(join(ws, entry), join(out, ws, entry), { recursive: true });
  }
}
