import { type Api, type Schemas, call } from './client';

/* A form's theme (`GET/PUT /forms/:id/theme`). */

export type Theme = Schemas['Theme'];

export function updateTheme(api: Api, formId: string, theme: Partial<Theme>, etag: string | null) {
  return call(api.client.PUT('/forms/{id}/theme', { params: { path: { id: formId } }, body: theme as never, headers: etag ? { 'If-Match': etag } : {} }));
}

/** Theme fields the form itself does not carry (`show_question_nav`), for comparing a draft with a version. */
export async function themeOnlyFields(api: Api, formId: string): Promise<Record<string, unknown>> {
  const theme = await call(api.client.GET('/forms/{id}/theme', { params: { path: { id: formId } } }));
  return { show_question_nav: (theme as { show_question_nav?: unknown }).show_question_nav };
}

export type Logo = Schemas['Logo'];

/**
 * Uploads a logo for the form's theme (`POST /forms/:id/logos`, multipart): the server checks what the file is
 * from its bytes and answers its public address, which the caller puts in `top_logo_url` or `branding_logo_url`.
 */
export function uploadLogo(api: Api, formId: string, file: File): Promise<Logo> {
  const body = new FormData();
  body.append('file', file, file.name);
  // openapi-fetch sends FormData as it is, with the browser's multipart boundary.
  return call(api.client.POST('/forms/{id}/logos', { params: { path: { id: formId } }, body: body as never, bodySerializer: (b: unknown) => b as FormData }));
}
