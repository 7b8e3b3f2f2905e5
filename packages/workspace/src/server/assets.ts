import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An entry of the browser bundle: its hashed file and the chunks it imports (preloaded by the page). */
export interface WorkspaceEntry {
  file: string;
  imports: string[];
}

/** What scripts/bundle.mjs wrote to dist/browser/manifest.json. */
export interface WorkspaceManifest {
  entries: { workspace: WorkspaceEntry; builder: WorkspaceEntry; results: WorkspaceEntry };
  /** Chunks loaded on demand, by their source under src/browser (e.g. `builder/builder`). */
  screens: Record<string, WorkspaceEntry>;
  files: string[];
}

/** Where the bundled browser files are on disk (built by `npm run build`). */
export function workspaceAssetsDir(): string {
  // This module is dist/src/server/assets.js.
  return join(__dirname, '..', '..', 'browser');
}

/** Reads the manifest; a clear error when the package was compiled but not bundled. */
export function readWorkspaceManifest(dir = workspaceAssetsDir()): WorkspaceManifest {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) {
    throw new Error(`@formloom/workspace is not bundled (${file} missing): run \`npm run build\``);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as WorkspaceManifest;
}
