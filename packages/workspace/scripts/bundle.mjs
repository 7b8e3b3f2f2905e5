#!/usr/bin/env node
// Bundles the workspace's browser code (src/browser, TypeScript with Lit) with esbuild into
// dist/browser/: hashed chunk names, so the server can mark them immutable, and manifest.json naming the
// entry files (docs/workspace.md, "How it is served"). Chained after `tsc -b` in the root build script.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/browser`;
const entries = {
  workspace: `${root}src/browser/workspace.ts`,
  builder: `${root}src/browser/builder-entry.ts`,
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await build({
  entryPoints: entries,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  metafile: true,
  legalComments: 'none',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  tsconfig: `${root}tsconfig.browser.json`,
  logLevel: 'warning',
});

const manifest = { entries: {}, files: [] };
for (const [file, out] of Object.entries(result.metafile.outputs)) {
  const name = relative(outdir, `${process.cwd()}/${file}`).split('\\').join('/');
  manifest.files.push(name);
  if (out.entryPoint) {
    const entry = Object.entries(entries).find(([, src]) => relative(process.cwd(), src) === out.entryPoint)?.[0];
    if (entry) manifest.entries[entry] = { file: name, imports: out.imports.filter((i) => !i.external && i.kind === 'import-statement').map((i) => relative(outdir, `${process.cwd()}/${i.path}`)) };
  }
}
manifest.files.sort();
writeFileSync(`${outdir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`workspace: bundled ${manifest.files.length} files into ${basename(root)}/dist/browser`);
