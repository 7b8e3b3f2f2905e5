import type { WorkspaceManifest } from './assets';

/** What the single page needs to know about where things are mounted (all absolute paths). */
export interface IndexPageOptions {
  /** Where the workspace router is mounted, without a trailing slash ('' at the root). */
  base: string;
  /** Where the Formloom API router is mounted, e.g. `/api/v1`. */
  apiBase: string;
  /** Where the public pages router is mounted (`/f/<slug>`, `/embed.js`), without a trailing slash. */
  pagesBase: string;
  title: string;
  /** Screens the URL shows first (their chunks are preloaded), e.g. `builder/builder`. */
  screens?: string[];
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page served for every workspace URL (docs/workspace.md): one `<formloom-workspace>` element and the
 * entry module with its chunks preloaded, so the first screen costs one round trip for all scripts.
 */
export function indexPage(manifest: WorkspaceManifest, o: IndexPageOptions): string {
  const asset = (f: string) => `${o.base}/workspace/assets/${f}`;
  const entry = manifest.entries.workspace;
  const files = new Set(entry.imports);
  for (const screen of o.screens ?? []) {
    const chunk = manifest.screens?.[screen];
    if (chunk) [chunk.file, ...chunk.imports].forEach((f) => files.add(f));
  }
  const preloads = [...files].map((f) => `<link rel="modulepreload" href="${escape(asset(f))}">`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(o.title)}</title><meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<style>html,body{margin:0;min-height:100%;background:#f7f7f8;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}@media (prefers-color-scheme:dark){html,body{background:#111114}}</style>
${preloads}<script type="module" src="${escape(asset(entry.file))}"></script>
</head><body><formloom-workspace base="${escape(o.base)}" api-base="${escape(o.apiBase)}" pages-base="${escape(o.pagesBase)}"><noscript>The Formloom workspace needs JavaScript.</noscript></formloom-workspace></body></html>`;
}
