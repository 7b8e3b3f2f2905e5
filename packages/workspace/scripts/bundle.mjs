#!/usr/bin/env node
// Bundles the workspace's browser code (src/browser, TypeScript with Lit) with esbuild into
// dist/browser/: hashed chunk names, so the server can mark them immutable, and manifest.json naming the
// entry files (docs/workspace.md, "How it is served"), with each file's brotli and gzip copies beside it.
// Chained after `tsc -b` in the root build script.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/browser`;
const entries = {
  workspace: `${root}src/browser/workspace.ts`,
  builder: `${root}src/browser/builder-entry.ts`,
  results: `${root}src/browser/results-entry.ts`,
};

// The folder is never emptied while a server may read it (tests run `npm start`, which builds, beside servers
// of the same checkout): files are written whole under their hashed names, the manifest last, and only then
// are files of earlier builds removed.
const writeAtomic = (file, contents) => {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
};
mkdirSync(outdir, { recursive: true });
const result = await build({
  entryPoints: entries,
  outdir,
  write: false,
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
// Each file with its compressed copies beside it, sent as they are by the server
// (src/server/compressed-assets.ts). A name carries its content's hash: a file already there with its
// copies is this one, and is left as it is.
for (const out of result.outputFiles) {
  const file = out.path;
  if (existsSync(file) && existsSync(`${file}.br`) && existsSync(`${file}.gz`)) continue;
  const contents = Buffer.from(out.contents);
  writeAtomic(`${file}.gz`, gzipSync(contents, { level: 9 }));
  writeAtomic(`${file}.br`, brotliCompressSync(contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length } }));
  writeAtomic(file, contents);
}
writeAtomic(`${outdir}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
const kept = new Set(['manifest.json', ...manifest.files.flatMap((f) => [f, `${f}.br`, `${f}.gz`])]);
for (const entry of readdirSync(outdir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const name = relative(outdir, join(entry.parentPath ?? entry.path, entry.name)).split('\\').join('/');
  if (!kept.has(name) && !name.endsWith('.tmp')) rmSync(join(outdir, name), { force: true });
}
console.log(`workspace: bundled ${manifest.files.length} files into ${basename(root)}/dist/browser`);
