export { createWorkspaceRouter, WORKSPACE_PATHS, type WorkspaceRouterOptions } from './router';
export { readWorkspaceManifest, workspaceAssetsDir, type WorkspaceManifest, type WorkspaceEntry } from './assets';
