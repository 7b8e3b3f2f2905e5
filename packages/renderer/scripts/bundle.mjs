// `npm run build` (after `tsc -b`): the browser entries bundled by esbuild into one file each, named by a hash of
// their content so that servers can mark them immutable (docs/respondents.md "Speed"). Writes
// dist/bundle/<name>.<hash>.js and dist/bundle/manifest.json ({entry name: file name}); stale bundles are removed.
// Scripts are IIFEs: the same file works from `<script src>` and `<script type="module" src>`.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');

const ENTRIES = {
  form: 'src/browser/index.ts',
  signing: 'src/browser/signing/index.ts',
  invitation: 'src/browser/invitation/index.ts',
};

const result = await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)])),
  bundle: true,
  write: false,
  format: 'iife',
  target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
  minify: true,
  legalComments: 'none',
  // The element's stylesheet travels inside its script: one request, and no unstyled flash.
  loader: { '.css': 'text' },
  outdir: out,
  logLevel: 'warning',
});

mkdirSync(out, { recursive: true });
const manifest = {};
for (const file of result.outputFiles) {
  const name = file.path.slice(out.length + 1).replace(/\.js$/, '');
  const hash = createHash('sha256').update(file.contents).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');
  const fileName = `${name === 'form' ? 'formloom-form' : `formloom-${name}`}.${hash}.js`;
  writeFileSync(join(out, fileName), file.contents);
  manifest[name] = fileName;
}
const kept = new Set([...Object.values(manifest), 'manifest.json']);
for (const f of readdirSync(out)) if (!kept.has(f)) rmSync(join(out, f));
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
