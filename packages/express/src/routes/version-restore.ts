import { formOut, VersionRestoreService } from '@formloom/core';
import { json, param, type RouteSpec } from '../route-table';

/** Restoring a published version as the draft (docs/decisions.md, Forms, "Version restore"; docs/workspace.md). */
export const versionRestoreRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/forms/:id/versions/:versionId/restore',
    operationId: 'restoreFormVersion',
    summary: "Make a published version's snapshot the draft (has_unpublished_changes true; the next publish's changelog says version_restored)",
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: 'the full form, its draft now the version', schema: formOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.service(VersionRestoreService).restore(ctx.principal, param(ctx, 'id'), param(ctx, 'versionId'))),
  },
];
