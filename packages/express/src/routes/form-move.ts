import { FormMoveService, formOut, formPlaceSchema } from '@formloom/core';
import { formEtag } from '../form-etag';
import { json, param, type RouteSpec } from '../route-table';

/** Moving and copying a form into a team or the caller's own forms (docs/decisions.md, Teams); not in the original API. */
export const formMoveRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/forms/:id/move',
    operationId: 'moveForm',
    summary:
      "Move a form into a team (team_id) or into the caller's own forms (null): the same form, address, responses and versions. Needs the right to delete it where it is (owner or admin of its team; the owner of a personal form) and to create forms in the target team (owner, admin or editor); each team involved gets an audit entry (form.moved_out, form.moved_in)",
    tag: 'Forms',
    scope: 'forms',
    body: formPlaceSchema,
    success: { status: 200, description: 'the full form in its new place', schema: formOut, headers: { ETag: "The form's entity tag: send it back as `If-Match` with the next write" } },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => {
      const form = await ctx.formloom.service(FormMoveService).move(ctx.principal, param(ctx, 'id'), ctx.req.body);
      return { status: 200, body: form, headers: { ETag: formEtag(form as unknown as Record<string, unknown>) } };
    },
  },
  {
    method: 'post',
    path: '/forms/:id/copy',
    operationId: 'copyForm',
    summary:
      "Copy a form into a team (team_id) or into the caller's own forms (null) as a new draft owned by the caller, with copies of its questions (no responses, no versions). Needs read access to the form and the right to create forms in the target team; each team involved gets an audit entry (form.copied_out, form.copied_in)",
    tag: 'Forms',
    scope: 'forms',
    body: formPlaceSchema,
    success: { status: 201, description: 'the new full form', schema: formOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.service(FormMoveService).copy(ctx.principal, param(ctx, 'id'), ctx.req.body), 201),
  },
];
