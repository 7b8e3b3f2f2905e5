import { themeInputSchema } from '@formloom/core';
import { json, param, type RouteContext, type RouteSpec } from '../route-table';

const id = (ctx: Pick<RouteContext, 'req'>) => param(ctx, 'id');

/** Publishing, versions and theme. */
export const publishingRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/forms/:id/publish',
    summary: 'Publish the current state as a new version',
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: 'the updated full form plus `version`' },
    errors: [401, 403, 404, 409],
    handler: async (ctx) => json(await ctx.formloom.publishing.publish(ctx.principal, id(ctx))),
  },
  {
    method: 'delete',
    path: '/forms/:id/publish',
    summary: 'Take the form offline; version history is kept',
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: 'the updated full form' },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.publishing.unpublish(ctx.principal, id(ctx))),
  },
  {
    method: 'get',
    path: '/forms/:id/versions',
    summary: 'List published versions, newest first, with changelog and snapshot',
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: '{versions[]}' },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.publishing.versions(ctx.principal, id(ctx))),
  },
  {
    method: 'get',
    path: '/forms/:id/theme',
    summary: 'Get every theme field of the form',
    tag: 'Theme',
    scope: 'forms',
    success: { status: 200, description: 'the theme object' },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.themes.get(ctx.principal, id(ctx))),
  },
  {
    method: 'put',
    path: '/forms/:id/theme',
    summary: 'Update any subset of theme fields',
    tag: 'Theme',
    scope: 'forms',
    body: themeInputSchema,
    success: { status: 200, description: 'the complete updated theme' },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.themes.update(ctx.principal, id(ctx), ctx.req.body)),
  },
  {
    method: 'get',
    path: '/public/forms/:slug',
    summary: 'The latest published version of a form, for respondents (no key)',
    tag: 'Public',
    scope: null,
    success: { status: 200, description: '{form_id, slug, version, published_at, title, description, theme, snapshot}' },
    errors: [404],
    handler: async ({ formloom, req }) => json(await formloom.publishing.publicForm(String(req.params.slug))),
  },
];
