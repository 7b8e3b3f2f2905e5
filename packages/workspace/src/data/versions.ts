import { type Api, ApiError, type Schemas, call } from './client';
import type { Form } from './forms';

/* A form's published versions and restoring one as the draft (docs/decisions.md "Version restore"). */

export type Version = Schemas['Version'];

export async function listVersions(api: Api, formId: string): Promise<Version[]> {
  return (await call(api.client.GET('/forms/{id}/versions', { params: { path: { id: formId } } }))).versions;
}

/**
 * `POST /forms/:id/versions/:versionId/restore` makes that version's snapshot the draft and answers the form.
 * It is written from the sign-in contract: the generated types gain it once the endpoint is served.
 */
export async function restoreVersion(api: Api, formId: string, versionId: string, etag: string | null): Promise<Form> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (etag) headers['If-Match'] = etag;
  // Untyped on purpose until the generated paths include it; still through the client (CSRF header, base URL).
  const post = api.client.POST as unknown as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const r = await post('/forms/{id}/versions/{versionId}/restore', { params: { path: { id: formId, versionId } }, headers }).catch(() => null);
  if (!r) throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  const res = r as { data?: unknown; error?: unknown; response: Response };
  if (!res.response.ok) throw ApiError.from(res.response.status, res.error);
  return res.data as Form;
}
