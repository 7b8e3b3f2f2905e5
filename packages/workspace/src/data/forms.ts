import { type Api, ApiError, type Schemas, call } from './client';

/* The forms area of the API: typed calls the screens use, one per operation. */

export type FormListItem = Schemas['FormListItem'];
type ApiQuestion = Schemas['Question'];
export type QuestionType = ApiQuestion['type'];
/**
 * A question as the editor holds it. The document describes questions as a union by `type`, each with its
 * own properties; the editor changes a question's type in place, so it keeps the properties of any type.
 */
export type Question = Omit<ApiQuestion, 'type' | 'properties'> & { type: QuestionType; properties: Record<string, any> };
export type Form = Omit<Schemas['Form'], 'questions'> & { questions: Question[] };
export type FormInput = Omit<Partial<Form>, 'questions'> & { questions?: Array<Partial<Question> & { type: QuestionType; title: string }> };

export interface FormFilters {
  search?: string;
  team_id?: string;
  published?: boolean;
  page?: number;
  per_page?: number;
}

/** True when the API accepts whoever is calling (a session, or an embedding host's own sign-in). */
export async function signedIn(api: Api): Promise<boolean> {
  const r = await api.client.GET('/forms', { params: { query: { per_page: 1 } } });
  if (r.response.status === 401) return false;
  if (!r.response.ok) throw ApiError.from(r.response.status, r.error);
  return true;
}

export function listForms(api: Api, filters: FormFilters) {
  return call(api.client.GET('/forms', { params: { query: filters } }));
}

export function createForm(api: Api, body: FormInput & { title: string }) {
  return call(api.client.POST('/forms', { body: body as never }));
}

/** A form and its entity tag: send the tag back as `If-Match` so a write cannot overwrite another tab's. */
export async function getForm(api: Api, id: string): Promise<{ form: Form; etag: string | null }> {
  let r;
  try {
    r = await api.client.GET('/forms/{id}', { params: { path: { id } } });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  if (!r.response.ok || !r.data) throw ApiError.from(r.response.status, r.error);
  return { form: r.data, etag: r.response.headers.get('ETag') };
}

/** Saves changed fields; with `etag`, answers 412 (ApiError status 412) when the form changed since. */
export async function updateForm(api: Api, id: string, body: FormInput, etag: string | null): Promise<{ form: Form; etag: string | null }> {
  let r;
  try {
    r = await api.client.PUT('/forms/{id}', { params: { path: { id } }, body: body as never, headers: etag ? { 'If-Match': etag } : {} });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  if (!r.response.ok || !r.data) throw ApiError.from(r.response.status, r.error);
  return { form: r.data, etag: r.response.headers.get('ETag') };
}

export function deleteForm(api: Api, id: string, deleteSignedContracts = false) {
  return call(api.client.DELETE('/forms/{id}', { params: { path: { id }, query: deleteSignedContracts ? { delete_signed_contracts: true } : {} } }));
}

export function duplicateForm(api: Api, id: string) {
  return call(api.client.POST('/forms/{id}/duplicate', { params: { path: { id } } }));
}

export function publishForm(api: Api, id: string, etag: string | null) {
  return call(api.client.POST('/forms/{id}/publish', { params: { path: { id } }, headers: etag ? { 'If-Match': etag } : {} }));
}

export function unpublishForm(api: Api, id: string, etag: string | null) {
  return call(api.client.DELETE('/forms/{id}/publish', { params: { path: { id } }, headers: etag ? { 'If-Match': etag } : {} }));
}

export function listTeams(api: Api) {
  return call(api.client.GET('/teams', {}));
}
