import { type Api, type Schemas, call } from './client';

/* A form's theme (document 1, `GET/PUT /forms/:id/theme`). */

export type Theme = Schemas['Theme'];

export function updateTheme(api: Api, formId: string, theme: Partial<Theme>, etag: string | null) {
  return call(api.client.PUT('/forms/{id}/theme', { params: { path: { id: formId } }, body: theme as never, headers: etag ? { 'If-Match': etag } : {} }));
}
