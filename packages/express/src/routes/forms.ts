import { createFormSchema, createdFormOut, formListOut, formOut, successOut, updateFormSchema } from '@formloom/core';
import { json, param, type RouteContext, type RouteSpec } from '../route-table';

const id = (ctx: Pick<RouteContext, 'req'>) => param(ctx, 'id');
const pageParams = [
  { name: 'page', description: '1-based page (default 1)', schema: { type: 'integer', minimum: 1 } },
  { name: 'per_page', description: 'items per page (default 50, 1-100)', schema: { type: 'integer', minimum: 1, maximum: 100 } },
];

/** Forms: list, create, get, update, delete, duplicate (docs/decisions.md, "Forms"). */
export const formRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/forms',
    operationId: 'listForms',
    summary: 'List the forms the caller may access, personal and from their teams',
    tag: 'Forms',
    scope: 'forms',
    query: [
      ...pageParams,
      { name: 'search', description: 'case-insensitive partial title match', schema: { type: 'string' } },
      { name: 'team_id', description: "only this team's forms", schema: { type: 'string' } },
      { name: 'published', description: 'only published (true) or unpublished (false) forms', schema: { type: 'boolean' } },
    ],
    success: { status: 200, description: '{forms[], total, page, per_page}', schema: formListOut },
    errors: [400, 401, 403],
    handler: async ({ formloom, principal, req }) => json(await formloom.formList.list(principal, req.query)),
  },
  {
    method: 'post',
    path: '/forms',
    operationId: 'createForm',
    summary: 'Create a form with its questions (optionally publishing it)',
    tag: 'Forms',
    scope: 'forms',
    body: createFormSchema,
    success: { status: 201, description: 'the full form; `publish_error` when `published: true` failed a check', schema: createdFormOut },
    errors: [400, 401, 403, 404],
    handler: async ({ formloom, principal, req }) => json(await formloom.forms.create(principal, req.body), 201),
  },
  {
    method: 'get',
    path: '/forms/:id',
    operationId: 'getForm',
    summary: 'Get a form with its questions ordered by position',
    tag: 'Forms',
    scope: 'forms',
    success: { status: 200, description: 'the full form', schema: formOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.forms.get(ctx.principal, id(ctx))),
  },
  {
    method: 'put',
    path: '/forms/:id',
    operationId: 'updateForm',
    summary: 'Update a form (send only changed fields); `questions` synchronises the question list',
    tag: 'Forms',
    scope: 'forms',
    body: updateFormSchema,
    success: { status: 200, description: 'the updated full form', schema: formOut },
    errors: [400, 401, 403, 404, 409],
    handler: async (ctx) => json(await ctx.formloom.forms.update(ctx.principal, id(ctx), ctx.req.body)),
  },
  {
    method: 'delete',
    path: '/forms/:id',
    operationId: 'deleteForm',
    summary: 'Delete a form irreversibly with its questions, responses and versions',
    tag: 'Forms',
    scope: 'forms',
    query: [{ name: 'delete_signed_contracts', description: 'also delete signed contracts', schema: { type: 'boolean' } }],
    success: { status: 200, description: '{success: true}', schema: successOut },
    errors: [400, 401, 403, 404, 409],
    handler: async (ctx) => json(await ctx.formloom.forms.delete(ctx.principal, id(ctx), ctx.req.query)),
  },
  {
    method: 'post',
    path: '/forms/:id/duplicate',
    operationId: 'duplicateForm',
    summary: 'Duplicate a form as a new draft titled "Copy of <title>"',
    tag: 'Forms',
    scope: 'forms',
    success: { status: 201, description: 'the new full form', schema: formOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.forms.duplicate(ctx.principal, id(ctx)), 201),
  },
];
