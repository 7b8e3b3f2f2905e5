import { FormSlugService, formOut, formSlugSchema } from '@formloom/core';
import { formEtag } from '../form-etag';
import { param, type RouteSpec } from '../route-table';

/** Choosing a form's address (docs/decisions.md, Forms, "The form's address"); not in the original API. */
export const formSlugRoutes: RouteSpec[] = [
  {
    method: 'put',
    path: '/forms/:id/slug',
    operationId: 'changeFormSlug',
    summary: "Choose the form's address (/f/<slug>): live at once, no new version; the old address answers 404 and is free again (409 reason slug_taken when another form has it)",
    tag: 'Forms',
    scope: 'forms',
    body: formSlugSchema,
    success: { status: 200, description: 'the full form with its new slug', schema: formOut, headers: { ETag: "The form's entity tag (the slug is part of it): send it back as `If-Match` with the next write" } },
    errors: [400, 401, 403, 404, 409],
    handler: async (ctx) => {
      const form = await ctx.formloom.service(FormSlugService).change(ctx.principal, param(ctx, 'id'), ctx.req.body);
      return { status: 200, body: form, headers: { ETag: formEtag(form as unknown as Record<string, unknown>) } };
    },
  },
];
