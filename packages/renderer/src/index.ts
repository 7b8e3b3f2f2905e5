import { readFileSync } from 'node:fs';
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
  /** Each language's words but English (JSON), by language. */
  languages: Record<string, string>;
}

/**
 * Where the bundles are and which files they are, or null when they were not built (`npm run build` bundles
 * after `tsc -b`).
 */
export function rendererBundles(): { dir: string; files: RendererBundles } | null {
  const dir = join(__dirname, '..', 'bundle');
  try {
    return { dir, files: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RendererBundles };
  } catch {
    return null;
  }
}

export { contrast, readableOn, HEX_COLOR } from './contrast';
export { PAGE_LANGUAGES, RTL_LANGUAGES, pickLanguage } from './languages';

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
