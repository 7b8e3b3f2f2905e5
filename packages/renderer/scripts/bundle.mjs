// `npm run build` (after `tsc -b`): the browser entries bundled by esbuild into one file each, named by a hash of
// their content so that servers can mark them immutable (docs/respondents.md "Speed"). Writes
// dist/bundle/<name>.<hash>.js, the payment and booking controls' ES module (formloom-form-on-demand.<hash>.js),
// one dist/bundle/formloom-lang-<lang>.<hash>.json per language but English, and dist/bundle/manifest.json
// ({entry name: file name, onDemand: file name, languages: {lang: file name}}); stale files are removed.
// Scripts are IIFEs: the same file works from `<script src>` and `<script type="module" src>`.
// Each file gets its compressed copies beside it, `<file>.br` and `<file>.gz`, which servers send as they are:
// compressing at every start cost 300 ms of CPU and left about 2.5 MB of the compressor's memory
// resident (docs/decisions.md, "Session 13").
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');

const ENTRIES = {
  form: 'src/browser/index.ts',
  signing: 'src/browser/signing/index.ts',
  invitation: 'src/browser/invitation/index.ts',
};

// Every file appears whole or not at all: test processes may read the bundle while another process rebuilds it.
const writeAtomic = (file, contents) => {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
};
/**
 * The file and its compressed copies (brotli at its best quality, gzip at 9), each written atomically. Names
 * carry their content's hash: a file already there with its copies is this one, and is left as it is.
 */
const writeCompressed = (file, contents) => {
  if (existsSync(file) && existsSync(`${file}.br`) && existsSync(`${file}.gz`)) return;
  writeAtomic(`${file}.gz`, gzipSync(contents, { level: 9 }));
  const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: contents.length };
  writeAtomic(`${file}.br`, brotliCompressSync(contents, { params }));
  writeAtomic(file, contents);
};
const hashOf = (contents) => createHash('sha256').update(contents).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');
mkdirSync(out, { recursive: true });

// The languages other than English: one JSON file each, outside the script (src/browser/i18n/packs.ts).
const packs = await build({ entryPoints: [join(root, 'src/browser/i18n/packs.ts')], bundle: true, write: false, format: 'cjs', platform: 'neutral', logLevel: 'warning' });
const mod = { exports: {} };
new Function('module', 'exports', packs.outputFiles[0].text)(mod, mod.exports);
const languages = {};
for (const [lang, words] of Object.entries(mod.exports.PACKS)) {
  const json = Buffer.from(JSON.stringify(words));
  const fileName = `formloom-lang-${lang}.${hashOf(json)}.json`;
  writeCompressed(join(out, fileName), json);
  languages[lang] = fileName;
}

// The browsers the pages support (no lower language level: class fields and the like run as written).
const TARGET = ['chrome90', 'firefox90', 'safari15'];

// The element's stylesheet travels inside its script as text (one request, no unstyled flash), minified: its
// comments and spaces were a tenth of the script's bytes (docs/respondents.md "Speed": the 30 kB budget).
const minifiedCss = {
  name: 'minified-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async (args) => {
      const { code } = await transform(readFileSync(args.path, 'utf8'), { loader: 'css', minify: true, target: TARGET });
      return { contents: code, loader: 'text' };
    });
  },
};

// The payment and booking questions' controls (src/on-demand.ts): a bundle of their own, an ES module the form's
// script imports only for a form that has one (docs/decisions.md "Respondent page"), so the others never
// download them. Built first: the form's script is given its name.
const onDemand = await build({
  entryPoints: [join(root, 'src/browser/questions/on-demand.ts')],
  bundle: true,
  write: false,
  format: 'esm',
  target: TARGET,
  minify: true,
  legalComments: 'none',
  outdir: out,
  logLevel: 'warning',
});
const onDemandJs = Buffer.from(onDemand.outputFiles[0].contents);
const onDemandFile = `formloom-form-on-demand.${hashOf(onDemandJs)}.js`;
writeCompressed(join(out, onDemandFile), onDemandJs);

const result = await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)])),
  bundle: true,
  write: false,
  format: 'iife',
  target: TARGET,
  minify: true,
  legalComments: 'none',
  plugins: [minifiedCss],
  define: { FORMLOOM_LANGUAGE_FILES: JSON.stringify(languages), FORMLOOM_ON_DEMAND_FILE: JSON.stringify(onDemandFile) },
  outdir: out,
  logLevel: 'warning',
});

const manifest = {};
for (const file of result.outputFiles) {
  const name = file.path.slice(out.length + 1).replace(/\.js$/, '');
  const hash = hashOf(file.contents);
  const fileName = `${name === 'form' ? 'formloom-form' : `formloom-${name}`}.${hash}.js`;
  writeCompressed(join(out, fileName), Buffer.from(file.contents));
  manifest[name] = fileName;
}
manifest.onDemand = onDemandFile;
manifest.languages = languages;
const files = [...Object.values(manifest).filter((v) => typeof v === 'string'), ...Object.values(languages)];
const kept = new Set([...files.flatMap((f) => [f, `${f}.br`, `${f}.gz`]), 'manifest.json']);
for (const f of readdirSync(out)) if (!kept.has(f) && !f.endsWith('.tmp')) rmSync(join(out, f), { force: true });
writeAtomic(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
