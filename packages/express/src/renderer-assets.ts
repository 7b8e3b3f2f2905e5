import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import express, { type Request, type Response, type Router } from 'express';
import Negotiator from 'negotiator';
import { ASSET_PREFIX, LIBRARY_FONTS, fontFiles, rendererAssets, rendererBundles } from '@formloom/renderer';
import { setCorsHeaders } from './cors';
import type { EmbedOrigins } from './security-headers';

/*
 * The renderer's files (docs/respondents.md "Speed"): each browser entry is one bundle whose name carries a
 * hash of its content, served `immutable` under `<mount>/formloom/assets/`; `<mount>/embed.js` is the form's
 * bundle under a name that never changes (cached for minutes), for host pages' `<script src>` whatever its
 * `type`. Files are sent brotli- or gzip-compressed as the client accepts (see `Asset`). The bundles and
 * their compressed copies are built by `npm run build`; a host that mounts the pages router builds nothing.
 */

/** Where the pages' scripts and styles are, under the pages router's mount. */
export interface AssetPaths {
  form: string;
  /** The payment and booking controls' module (@formloom/renderer's src/on-demand.ts), for `/f/` to preload. */
  onDemand: string;
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

/**
 * A file's bytes and, unless it is compressed already (fonts), its brotli and gzip copies: read from beside
 * it where the build wrote them (`<file>.br`, `<file>.gz`: the renderer's bundles), else made at the first
 * request that asks for them and kept. Compressing every file at start cost 300 ms of CPU and left about
 * 2.5 MB of the compressor's memory resident (docs/decisions.md, "Session 13").
 */
class Asset {
  private copies: { br: Buffer | null; gzip: Buffer | null };
  constructor(
    readonly type: string,
    readonly cache: string,
    readonly raw: Buffer,
    readonly compressible: boolean,
    file?: string,
  ) {
    this.copies = { br: compressible && file ? readIfThere(`${file}.br`) : null, gzip: compressible && file ? readIfThere(`${file}.gz`) : null };
  }

  /** The same bytes under another `Cache-Control` (their copies shared). */
  cachedFor(cache: string): Asset {
    const other = new Asset(this.type, cache, this.raw, this.compressible);
    other.copies = this.copies;
    return other;
  }

  /** The bytes to send for the client's `Accept-Encoding`, and their encoding (null: as they are). */
  encodedFor(req: Request): { body: Buffer; encoding: 'br' | 'gzip' | null } {
    if (!this.compressible) return { body: this.raw, encoding: null };
    const accepted = preferredEncoding(req.headers['accept-encoding']);
    if (accepted === 'br') return { body: (this.copies.br ??= brotli(this.raw)), encoding: 'br' };
    if (accepted === 'gzip') return { body: (this.copies.gzip ??= gzipSync(this.raw, { level: 9 })), encoding: 'gzip' };
    return { body: this.raw, encoding: null };
  }
}

const ENCODINGS = ['br', 'gzip', 'identity'];

/**
 * brotli or gzip, whichever the client weighs more, brotli on a tie (browsers list `gzip, deflate, br` all at
 * q=1, where the first listed would win by the client's order), or null for the file as it is: no
 * header, neither accepted, or `identity` weighed above both.
 */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const chosen = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(ENCODINGS, { preferred: ENCODINGS });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

function readIfThere(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

const brotli = (raw: Buffer) =>
  brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });

function send(req: Request, res: Response, a: Asset): void {
  res.setHeader('Cache-Control', a.cache);
  res.type(a.type);
  const { body, encoding } = a.encodedFor(req);
  if (a.compressible) res.setHeader('Vary', 'Accept-Encoding');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.send(body);
}

export function rendererAssetsRouter(embed: EmbedOrigins): { router: Router; paths: AssetPaths; words(lang: string): string | null } {
  const bundles = rendererBundles();
  if (!bundles) throw new Error('@formloom/renderer is not built (dist/bundle/manifest.json missing): run `npm run build`');
  const files = new Map<string, Asset>();
  const built = (type: string, name: string) => new Asset(type, IMMUTABLE, readFileSync(`${bundles.dir}/${name}`), true, `${bundles.dir}/${name}`);
  const js = (name: string) => built('text/javascript', name);
  for (const name of [bundles.files.form, bundles.files.onDemand, bundles.files.signing, bundles.files.invitation]) files.set(`${ASSET_PREFIX}/${name}`, js(name));
  const source = rendererAssets();
  files.set(`${ASSET_PREFIX}/formloom.css`, new Asset('text/css', SHORT, readFileSync(source.stylesheet), true));
  files.set(`${ASSET_PREFIX}/signing.css`, new Asset('text/css', SHORT, readFileSync(source.signingStylesheet), true));
  const favicon = new Asset('image/svg+xml', 'public, max-age=86400', FAVICON, true);
  files.set(`${ASSET_PREFIX}/favicon.svg`, favicon);
  files.set('/favicon.ico', favicon);
  const words = new Map<string, string>();
  for (const [lang, name] of Object.entries(bundles.files.languages ?? {})) {
    const file = built('application/json', name);
    words.set(lang, file.raw.toString('utf8'));
    files.set(`${ASSET_PREFIX}/${name}`, file);
  }
  // WOFF2 is brotli inside already: sent as it is.
  for (const [name, file] of Object.entries(SIGNATURE_FONTS)) files.set(`${ASSET_PREFIX}/${name}`, new Asset('font/woff2', SHORT, readFileSync(require.resolve(file)), false));
  files.set('/embed.js', files.get(`${ASSET_PREFIX}/${bundles.files.form}`)!.cachedFor(SHORT));
  // The theme's font library (renderer/src/fonts.ts): files of the @fontsource packages as they are in
  // node_modules, read at their first request (not at start: most instances use few of them). Their names carry
  // the package version, so they are immutable.
  const fontSources = new Map<string, string>();
  for (const font of LIBRARY_FONTS) for (const f of fontFiles(font)) fontSources.set(`${ASSET_PREFIX}/${f.name}`, f.source);
  const fontAsset = (path: string): Asset | undefined => {
    const source = fontSources.get(path);
    if (!source) return undefined;
    const a = new Asset('font/woff2', IMMUTABLE, readFileSync(require.resolve(source)), false);
    files.set(path, a);
    return a;
  };

  const router = express.Router();
  router.get(['/embed.js', '/favicon.ico', `${ASSET_PREFIX}/:name`], (req, res, next) => {
    const a = files.get(req.path) ?? fontAsset(req.path);
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
      onDemand: at(bundles.files.onDemand),
      signing: at(bundles.files.signing),
      invitation: at(bundles.files.invitation),
      signingCss: at('signing.css'),
      favicon: at('favicon.svg'),
    },
  };
}
