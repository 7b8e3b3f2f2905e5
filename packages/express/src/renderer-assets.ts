import { existsSync, readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import express, { type Router } from 'express';
import { ASSET_PREFIX, rendererAssets } from '@formloom/renderer';
import { setCorsHeaders } from './cors';
import type { EmbedOrigins } from './security-headers';

/*
 * The respondent's element as static files (docs/respondents.md): `<mount>/embed.js` for host pages and the
 * modules and stylesheet under `<mount>/formloom/assets/`. They are built by our `tsc -b`; a host that mounts
 * the pages router serves them with no build step of its own.
 */

/** Path of the element's entry module under the pages router's mount. */
export const ENTRY_PATH = `${ASSET_PREFIX}/${rendererAssets().entry}`;
/** Path of the signer's page's entry module and stylesheet under the pages router's mount. */
export const SIGNING_ENTRY_PATH = `${ASSET_PREFIX}/${rendererAssets().signingEntry}`;
export const SIGNING_CSS_PATH = `${ASSET_PREFIX}/signing.css`;
/** Path of the team invitation page's module under the pages router's mount. */
export const INVITATION_ENTRY_PATH = `${ASSET_PREFIX}/${rendererAssets().invitationEntry}`;

const SIGNATURE_FONTS: Record<string, string> = {
  'signature-latin.woff2': '@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff2',
  'signature-latin-ext.woff2': '@fontsource/dancing-script/files/dancing-script-latin-ext-400-normal.woff2',
};

/** Public, cacheable for a few minutes (file names carry no hash, so a release shows within that time). */
const CACHE = 'public, max-age=300';

export function rendererAssetsRouter(embed: EmbedOrigins): Router {
  const assets = rendererAssets();
  if (!existsSync(join(assets.scriptsDir, assets.entry))) {
    throw new Error(`@formloom/renderer is not built (${assets.entry} missing): run \`npx tsc -b\``);
  }
  const css = readFileSync(assets.stylesheet);
  const signingCss = readFileSync(assets.signingStylesheet);
  const router = express.Router();
  // Module scripts loaded by another origin's page need CORS; the files are public.
  router.use((req, res, next) => {
    setCorsHeaders(res, embed, req.headers.origin);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get('/embed.js', (_req, res) => {
    res.setHeader('Cache-Control', CACHE);
    // Relative to this file's own URL, so that a host mounting the router under a prefix needs no option.
    res.type('text/javascript').send(`import '.${ENTRY_PATH}';\n`);
  });
  router.get(`${ASSET_PREFIX}/formloom.css`, (_req, res) => {
    res.setHeader('Cache-Control', CACHE);
    res.type('text/css').send(css);
  });
  router.get(SIGNING_CSS_PATH, (_req, res) => {
    res.setHeader('Cache-Control', CACHE);
    res.type('text/css').send(signingCss);
  });
  // The typed signature's face on the signer's page: the same Dancing Script the sealed PDF uses.
  for (const [name, file] of Object.entries(SIGNATURE_FONTS)) {
    router.get(`${ASSET_PREFIX}/${name}`, (_req, res, next) => {
      res.setHeader('Cache-Control', CACHE);
      res.type('font/woff2').sendFile(require.resolve(file), (err) => err && next());
    });
  }
  router.get(`${ASSET_PREFIX}/*path`, (req, res, next) => {
    const parts = ([] as string[]).concat((req.params as { path: string | string[] }).path);
    const rel = normalize(parts.join(sep));
    // Only the built modules: no other file of the package, nothing above the folder.
    if (!rel.endsWith('.js') || rel.startsWith('..') || rel.includes(`${sep}..${sep}`)) return next();
    res.setHeader('Cache-Control', CACHE);
    res.type('text/javascript').sendFile(rel, { root: assets.scriptsDir, dotfiles: 'deny' }, (err) => err && next());
  });
  return router;
}
