// Copies what the runtime image needs into the folder given as argument (docs/docker.md): the root
// manifest and lock file, the production node_modules, and of each workspace its package.json and the
// entries of its "files" list (what `npm pack` would publish: compiled dist/src, assets, bin). Sources,
// tests and their compiled output (dist/test), tsconfig files and build info stay behind.
//
// A workspace that publishes nothing (private, no "files" list: @formloom/test-browser, the browser
// launcher of the tests) is left out, with its link in node_modules: npm keeps every workspace through
// `npm prune --omit=dev`, whatever depends on it.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

const [out, flag] = process.argv.slice(2);
if (!out) throw new Error('usage: node .docker/runtime-files.mjs <folder> [--link-node-modules]');
// For the test of this staging (examples/self-hosted/test/docker-files.test.ts): node_modules entries are
// linked, not copied.
const linkModules = flag === '--link-node-modules';
const root = JSON.parse(readFileSync('package.json', 'utf8'));
const manifests = root.workspaces.map((ws) => ({ ws, manifest: JSON.parse(readFileSync(join(ws, 'package.json'), 'utf8')) }));
const leftOut = manifests.filter(({ manifest }) => manifest.private && !manifest.files);
// node_modules paths of the left-out workspaces' links, e.g. node_modules/@formloom/test-browser.
const leftOutLinks = new Set(leftOut.map(({ manifest }) => join('node_modules', manifest.name)));

mkdirSync(out, { recursive: true });
for (const f of ['package.json', 'package-lock.json']) cpSync(f, join(out, f));
if (linkModules) linkEntries('node_modules', join(out, 'node_modules'));
else cpSync('node_modules', join(out, 'node_modules'), { recursive: true, verbatimSymlinks: true, filter: (src) => !leftOutLinks.has(src) });
for (const { ws, manifest } of manifests) {
  if (leftOut.some((l) => l.ws === ws)) continue;
  mkdirSync(join(out, ws), { recursive: true });
  cpSync(join(ws, 'package.json'), join(out, ws, 'package.json'));
  for (const entry of manifest.files ?? []) {
    if (existsSync(join(ws, entry))) cpSync(join(ws, entry), join(out, ws, entry), { recursive: true });
  }
}

/** Links each package of `from` (each of a scope's, one level down) into `to`, but the left-out ones. */
function linkEntries(from, to) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    if (leftOutLinks.has(src)) continue;
    if (name.startsWith('@')) linkEntries(src, join(to, name));
    else symlinkSync(join(process.cwd(), src), join(to, name));
  }
}
