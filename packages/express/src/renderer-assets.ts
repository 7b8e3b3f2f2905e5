import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import express, { type Request, type Response, type Router } from 'express';
import { ASSET_PREFIX, rendererAssets, rendererBundles } from '@formloom/renderer';
import { setCorsHeaders } from './cors';
import type { EmbedOrigins } from './security-headers';

/*
 * The renderer's files (docs/respondents.md "Speed"): each browser entry is one bundle whose name carries a
 * hash of its content, served `immutable` under `<mount>/formloom/assets/`; `<mount>/embed.js` is the form's
 * bundle under a name that never changes (cached for minutes), for host pages' `<script src>` whatever its
 * `type`. Everything is compressed once at start (brotli, gzip) and served as the client accepts. The
 * bundles are built by `npm run build`; a host that mounts the pages router builds nothing.
 */

/** Where the pages' scripts and styles are, under the pages router's mount. */
export interface AssetPaths {
  form: string;
  signing: string;
  invitation: string;
  signingCss: string;
  favicon: string;
}

/** Whether `path` (relative to the pages router's mount) is one of the renderer's files. */
export const isAssetPath = (path: string) => path === '/embed.js' || path === '/favicon.ico' || path.startsWith(`${ASSET_PREFIX}/`);

/** The typed signature's face on the signer's page: the same Dancing Script the sealed PDF uses. */
const SIGNATURE_FONTS: Record<string, string> = {
  'signature-latin.woff2': '@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff2',
  'signature-latin-ext.woff2': '@fontsource/dancing-script/files/dancing-script-latin-ext-400-normal.woff2',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Names without a hash: a release shows within this time. */
const SHORT = 'public, max-age=300';

/** A small mark for browsers' tabs: `/favicon.ico` (which every browser asks for) and the pages' `<link rel=icon>`. */
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#6366f1"/><path d="M10 8h13v4h-9v3h8v4h-8v5h-4z" fill="#fff"/></svg>',
);

interface Asset {
  type: string;
  cache: string;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

function asset(type: string, cache: string, raw: Buffer): Asset {
  return {
    type,
    cache,
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  };
}

function send(req: Request, res: Response, a: Asset): void {
  res.setHeader('Cache-Control', a.cache);
  res.setHeader('Vary', 'Accept-Encoding');
  res.type(a.type);
  const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
  if (accepted === 'br') {
    res.setHeader('Content-Encoding', 'br');
    res.send(a.br);
  } else if (accepted === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(a.gzip);
  } else {
    res.send(a.raw);
  }
}

export function rendererAssetsRouter(embed: EmbedOrigins): { router: Router; paths: AssetPaths; words(lang: string): string | null } {
  const bundles = rendererBundles();
  if (!bundles) throw new Error('@formloom/renderer is not built (dist/bundle/manifest.json missing): run `npm run build`');
  const files = new Map<string, Asset>();
  const js = (name: string) => asset('text/javascript', IMMUTABLE, readFileSync(`${bundles.dir}/${name}`));
  for (const name of [bundles.files.form, bundles.files.signing, bundles.files.invitation]) files.set(`${ASSET_PREFIX}/${name}`, js(name));
  const source = rendererAssets();
  files.set(`${ASSET_PREFIX}/formloom.css`, asset('text/css', SHORT, readFileSync(source.stylesheet)));
  files.set(`${ASSET_PREFIX}/signing.css`, asset('text/css', SHORT, readFileSync(source.signingStylesheet)));
  files.set(`${ASSET_PREFIX}/favicon.svg`, asset('image/svg+xml', 'public, max-age=86400', FAVICON));
  files.set('/favicon.ico', asset('image/svg+xml', 'public, max-age=86400', FAVICON));
  const words = new Map<string, string>();
  for (const [lang, name] of Object.entries(bundles.files.languages ?? {})) {
    const raw = readFileSync(`${bundles.dir}/${name}`);
    words.set(lang, raw.toString('utf8'));
    files.set(`${ASSET_PREFIX}/${name}`, asset('application/json', IMMUTABLE, raw));
  }
  for (const [name, file] of Object.entries(SIGNATURE_FONTS)) files.set(`${ASSET_PREFIX}/${name}`, asset('font/woff2', SHORT, readFileSync(require.resolve(file))));
  files.set('/embed.js', { ...files.get(`${ASSET_PREFIX}/${bundles.files.form}`)!, cache: SHORT });

  const router = express.Router();
  router.get(['/embed.js', '/favicon.ico', `${ASSET_PREFIX}/:name`], (req, res, next) => {
    const a = files.get(req.path);
    if (!a) return next();
    // Scripts loaded by another origin's page (type="module", or crossorigin) need CORS; the files are public.
    setCorsHeaders(res, embed, req.headers.origin);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    send(req, res, a);
  });
  const at = (name: string) => `${ASSET_PREFIX}/${name}`;
  return {
    router,
    /** A language's words as JSON text, for a page to carry (null: English, built into the script). */
    words: (lang) => words.get(lang) ?? null,
    paths: {
      form: at(bundles.files.form),
      signing: at(bundles.files.signing),
      invitation: at(bundles.files.invitation),
      signingCss: at('signing.css'),
      favicon: at('favicon.svg'),
    },
  };
}
