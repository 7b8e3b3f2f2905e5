import { LOGO_MAX_BYTES, LogoService, logoBodySchema, logoOut } from '@formloom/core';
import { json, param, type RouteSpec } from '../route-table';
import { receiveFile } from '../multipart-file';

/**
 * A logo is public by nature and its name is a hash of its bytes: any cache may keep it for a year. Served with
 * `nosniff` and a CSP that lets nothing run, so an SVG opened as a page is only a drawing (docs/security.md).
 */
const LOGO_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** Theme logos uploaded by owners (docs/workspace.md, the builder's "Logos"; docs/decisions.md Workspace "Logo upload"); not in the original API. */
export const formLogoRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/forms/:id/logos',
    operationId: 'uploadFormLogo',
    summary:
      "Upload a logo for the form's theme (multipart/form-data, part \"file\"): stored in the blob store and answered with its public URL, for `top_logo_url` or `branding_logo_url`; the theme itself is not changed",
    tag: 'Theme',
    scope: 'forms',
    accepts: { 'multipart/form-data': logoBodySchema },
    success: { status: 201, description: 'the stored logo', schema: logoOut },
    errors: [400, 401, 403, 404, 413, 415],
    handler: async (ctx) => {
      const logos = ctx.formloom.service(LogoService);
      const formId = param(ctx, 'id');
      await logos.authorize(ctx.principal, formId);
      const file = await receiveFile(ctx.req, LOGO_MAX_BYTES, (t) => logos.assertDeclaredType(t));
      let stored: Awaited<ReturnType<LogoService['store']>>;
      try {
        stored = await logos.store(formId, file.body);
      } finally {
        file.release();
      }
      const base = ctx.formloom.config.publicUrl.replace(/\/+$/, '');
      const url = `${base}${ctx.req.baseUrl}/public/${stored.key}`;
      return json({ url, content_type: stored.kind.type, size: stored.size }, 201);
    },
  },
  {
    method: 'get',
    path: '/public/logos/:formId/:file',
    operationId: 'getFormLogo',
    summary: "A form's uploaded logo, as respondents' pages load it: public, named by its content's hash, cached for a year (immutable)",
    tag: 'Public',
    scope: null,
    success: { status: 200, description: 'the image, in the type its bytes showed at upload', media: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] },
    errors: [404],
    handler: async (ctx) => {
      const blob = await ctx.formloom.service(LogoService).open(param(ctx, 'formId'), param(ctx, 'file'));
      return { contentType: blob.contentType, stream: blob.body, headers: { ...LOGO_HEADERS, 'Content-Length': String(blob.size) } };
    },
  },
];
