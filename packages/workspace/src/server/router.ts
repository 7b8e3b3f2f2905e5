import express, { type Router } from 'express';
import { indexPage } from './index-page';
import { readWorkspaceManifest, workspaceAssetsDir, type WorkspaceManifest } from './assets';
import { compressedAssets } from './compressed-assets';

export interface WorkspaceRouterOptions {
  /** Where the Formloom API router is mounted, as the browser sees it (default `/api/v1`). */
  apiBase?: string;
  /** Where the public pages router is mounted (`/f/<slug>` share links, `/embed.js`; default `/`). */
  pagesBase?: string;
  /** The page title (default `Formloom`). */
  title?: string;
  /** Serve the single page for the workspace URLs (default true); `false` serves only the scripts, for hosts. */
  pages?: boolean;
}

/**
 * The URLs of the workspace's screens (docs/workspace.md): each answers the same page, whose element routes
 * on the client. Anything else falls through to the host's next handler.
 */
export const WORKSPACE_PATHS = [
  '/',
  '/signin',
  '/signup',
  '/forgot',
  '/auth/link',
  '/auth/reset',
  '/auth/verify',
  '/auth/finish',
  '/account',
  '/admin',
  '/admin/outbox',
  '/admin/backups',
  '/admin/respondents',
  '/teams',
  '/teams/:id',
  '/voice',
  '/voice/:tab',
  '/forms/:id',
  '/forms/:id/:tab',
  '/forms/:id/signing/:sessionId',
];

const IMMUTABLE = 'public, max-age=31536000, immutable';
const trim = (p: string) => p.replace(/\/+$/, '');

/**
 * The owners' workspace as an Express router (docs/workspace.md). Mount it after the API and the public
 * pages routers: `app.use('/', createWorkspaceRouter({ apiBase: '/api/v1' }))`. It serves
 * `workspace/assets/*` (hashed, immutable), `workspace/builder.js` and `workspace/results.js` (the stable
 * entries for host pages that place `<formloom-builder>` or `<formloom-results>`), and the single page for the workspace URLs.
 */
export function createWorkspaceRouter(options: WorkspaceRouterOptions = {}): Router {
  const dir = workspaceAssetsDir();
  const router = express.Router();
  let manifest: WorkspaceManifest;
  try {
    manifest = readWorkspaceManifest(dir);
  } catch (e) {
    // Compiled but not bundled (`npx tsc -b` alone): the API and the other routers keep working, and the
    // workspace's URLs say what to run instead of failing the whole app at start.
    const message = `${(e as Error).message}\n`;
    router.get(['/workspace/*path', ...(options.pages === false ? [] : WORKSPACE_PATHS)], (_req, res) => {
      res.status(503).type('text').send(message);
    });
    return router;
  }
  router.use('/workspace/assets', (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.use('/workspace/assets', compressedAssets(dir, manifest.files, IMMUTABLE));
  router.use('/workspace/assets', express.static(dir, { immutable: true, maxAge: '365d', index: false, dotfiles: 'deny', fallthrough: false, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }));
  for (const name of ['builder', 'results', 'workspace'] as const) {
    router.get(`/workspace/${name}.js`, (_req, res) => {
      // Short-lived: it names the hashed entry of the current release.
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.type('text/javascript').send(`import './assets/${manifest.entries[name].file}';\n`);
    });
  }
  if (options.pages === false) return router;
  router.get(WORKSPACE_PATHS, (req, res) => {
    const base = trim(req.baseUrl);
    const page = indexPage(manifest, {
      base,
      apiBase: trim(options.apiBase ?? '/api/v1'),
      pagesBase: trim(options.pagesBase ?? '/'),
      title: options.title ?? 'Formloom',
      // The builder's code comes with the page that opens it, rather than after the shell has run.
      screens: req.path.startsWith('/forms/') ? ['builder/builder'] : ['forms-list/forms-list'],
    });
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    // Inline style only for the page background; scripts only from here; images may be logos from anywhere.
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; font-src 'self' data: https:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    res.type('html').send(page);
  });
  return router;
}
