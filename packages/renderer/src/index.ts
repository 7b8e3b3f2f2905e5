import type * as ChildProcess from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the renderer's static files are on disk, for a server to serve them (the Express pages router does;
 * docs/respondents.md). Everything is built by `tsc -b` at our build time: a host serves files, it builds
 * nothing.
 */
export interface RendererAssets {
  /** Root of the browser modules: serve it at `<mount>/formloom/assets/`. */
  scriptsDir: string;
  /** The element's stylesheet, served at `<mount>/formloom/assets/formloom.css`. */
  stylesheet: string;
  /** Path of the entry module under `scriptsDir` (defines `<formloom-form>`). */
  entry: string;
  /** The signer's page (`/s/<short_code>`, docs/signing.md): its entry module under `scriptsDir`... */
  signingEntry: string;
  /** ...and its stylesheet, served at `<mount>/formloom/assets/signing.css`. */
  signingStylesheet: string;
  /** The team invitation page (`/teams/invite/<token>`, docs/teams.md): its module under `scriptsDir`. */
  invitationEntry: string;
}

/** The bundles `npm run build` makes (scripts/bundle.mjs): file names under `bundleDir`, hashed by content. */
export interface RendererBundles {
  /** Defines `<formloom-form>`: the `/f/` page's script and `embed.js`. */
  form: string;
  /** The signer's page. */
  signing: string;
  /** The team invitation page. */
  invitation: string;
  /** The payment and booking questions' controls, imported by the form's page when it has one (an ES module). */
  onDemand: string;
  /** Each language's words but English (JSON), by language. */
  languages: Record<string, string>;
}

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir: string): number {
  let max = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    max = Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

/**
 * In a checkout of the repository (sources beside the build), a bundle older than its sources is rebuilt
 * here, so that `npx tsc -b` followed by the tests serves the code just written. An installed package has no
 * sources and never rebuilds: `npm run build` (and `prepack`) made its bundle.
 */
function refreshInCheckout(dir: string): void {
  const pkg = join(__dirname, '..', '..');
  const script = join(pkg, 'scripts', 'bundle.mjs');
  if (!existsSync(script) || !existsSync(join(pkg, 'src', 'browser'))) return;
  let built = 0;
  try {
    built = statSync(join(dir, 'manifest.json')).mtimeMs;
  } catch {
    // Not built yet.
  }
  const sources = Math.max(newest(join(pkg, 'src')), newest(join(pkg, 'assets')), newest(join(pkg, '..', 'core', 'src', 'logic')));
  if (built > sources) return;
  // child_process only for this rebuild: a server that serves a current bundle never loads it (docs/operations.md, "Memory").
  (require('node:child_process') as typeof ChildProcess).execFileSync(process.execPath, [script], { stdio: 'inherit' });
}

/**
 * Where the bundles are and which files they are, or null when they were not built (`npm run build` bundles
 * after `tsc -b`).
 */
export function rendererBundles(): { dir: string; files: RendererBundles } | null {
  const dir = join(__dirname, '..', 'bundle');
  refreshInCheckout(dir);
  try {
    return { dir, files: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RendererBundles };
  } catch {
    return null;
  }
}

export { contrast, readableOn, HEX_COLOR } from './contrast';
export { PAGE_LANGUAGES, RTL_LANGUAGES, pickLanguage } from './languages';
export * from './fonts';
export { ON_DEMAND_KINDS, needsOnDemand } from './on-demand';

/** The URL prefix, under the pages router's mount, of the renderer's files. */
export const ASSET_PREFIX = '/formloom/assets';

export function rendererAssets(): RendererAssets {
  return {
    scriptsDir: join(__dirname, '..', 'browser'),
    stylesheet: join(__dirname, '..', '..', 'assets', 'formloom.css'),
    entry: 'renderer/src/browser/index.js',
    signingEntry: 'renderer/src/browser/signing/index.js',
    signingStylesheet: join(__dirname, '..', '..', 'assets', 'signing.css'),
    invitationEntry: 'renderer/src/browser/invitation/index.js',
  };
}
