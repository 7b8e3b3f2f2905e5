import { formOut, publicFormOut, publishedFormOut, themeInputSchema, themeOut, versionListOut } from '@formloom/core';
import { json, param, type RouteContext, type RouteSpec } from '../route-table';

const id = (ctx: Pick<RouteContext, 'req'>) => param(ctx, 'id');

/** Publishing, versions and theme. */
export const publishingRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/forms/:id/publish',
    operationId: 'publishForm',
    summary: 'Publish the current state as a new version',
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: 'the updated full form plus `version`', schema: publishedFormOut },
    errors: [401, 403, 404, 409],
    handler: async (ctx) => json(await ctx.formloom.publishing.publish(ctx.principal, id(ctx))),
  },
  {
    method: 'delete',
    path: '/forms/:id/publish',
    operationId: 'unpublishForm',
    summary: 'Take the form offline; version history is kept',
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: 'the updated full form', schema: formOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.publishing.unpublish(ctx.principal, id(ctx))),
  },
  {
    method: 'get',
    path: '/forms/:id/versions',
    operationId: 'listFormVersions',
    summary: 'List published versions, newest first, with changelog and snapshot',
    tag: 'Publishing',
    scope: 'forms',
    success: { status: 200, description: '{versions[]}', schema: versionListOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.publishing.versions(ctx.principal, id(ctx))),
  },
  {
    method: 'get',
    path: '/forms/:id/theme',
    operationId: 'getFormTheme',
    summary: 'Get every theme field of the form',
    tag: 'Theme',
    scope: 'forms',
    success: { status: 200, description: 'the theme object', schema: themeOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.themes.get(ctx.principal, id(ctx))),
  },
  {
    method: 'put',
    path: '/forms/:id/theme',
    operationId: 'updateFormTheme',
    summary: 'Update any subset of theme fields',
    tag: 'Theme',
    scope: 'forms',
    body: themeInputSchema,
    success: { status: 200, description: 'the complete updated theme', schema: themeOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.themes.update(ctx.principal, id(ctx), ctx.req.body)),
  },
  {
    method: 'get',
    path: '/public/forms/:slug',
    operationId: 'getPublicForm',
    summary: 'The latest published version of a form, for respondents (no key)',
    tag: 'Public',
    scope: null,
    success: { status: 200, description: '{form_id, slug, version, published_at, title, description, theme, snapshot}', schema: publicFormOut },
    errors: [404],
    handler: async ({ formloom, req }) => {
      const body = await formloom.publishing.publicForm(String(req.params.slug));
      // The body is a function of the version and whether the form is closed: a cheap validator, so a
      // repeated read is answered 304 (Express compares If-None-Match) without hashing the body.
      return { status: 200, body, headers: { ETag: `W/"${body.form_id}.${body.version}.${body.snapshot.closed ? 'c' : 'o'}"` } };
    },
  },
];
