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
  results: `${root}src/browser/results-entry.ts`,
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

// `entries`: the page entries; `screens`: the chunks loaded on demand (by their source under src/browser), so
// the server can preload a screen's files with the page that shows it first.
const manifest = { entries: {}, screens: {}, files: [] };
const rel = (p) => relative(outdir, `${process.cwd()}/${p}`).split('\\').join('/');
for (const [file, out] of Object.entries(result.metafile.outputs)) {
  const name = rel(file);
  manifest.files.push(name);
  if (!out.entryPoint) continue;
  const item = { file: name, imports: out.imports.filter((i) => !i.external && i.kind === 'import-statement').map((i) => rel(i.path)) };
  const entry = Object.entries(entries).find(([, src]) => relative(process.cwd(), src) === out.entryPoint)?.[0];
  if (entry) manifest.entries[entry] = item;
  else manifest.screens[out.entryPoint.replace(/^.*src\/browser\//, '').replace(/\.ts$/, '')] = item;
}
manifest.files.sort();
writeFileSync(`${outdir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`workspace: bundled ${manifest.files.length} files into ${basename(root)}/dist/browser`);
