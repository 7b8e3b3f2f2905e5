import { type Api, type Schemas, call } from './client';

/* The responses and analytics part of the API, for the results screen (docs/workspace.md, "Results"). */

export type Analytics = Schemas['Analytics'];
export type QuestionSummaries = Schemas['QuestionSummaries'];
export type QuestionSummary = QuestionSummaries['questions'][number];
export type ResponseItem = Schemas['ResponseList']['responses'][number];

/** The filters the list and the CSV export share. */
export interface ResponseFilter {
  since?: string;
  until?: string;
  completed?: boolean;
  /** Text in any answer, ignoring case. */
  search?: string;
}

export interface ResponseFilters extends ResponseFilter {
  page?: number;
  per_page?: number;
  /** A `next_cursor`: the page after it, by keyset (fast at any depth). */
  cursor?: string;
}

export function getAnalytics(api: Api, id: string, range: { since?: string; until?: string } = {}) {
  return call(api.client.GET('/forms/{id}/analytics', { params: { path: { id }, query: range } }));
}

export function getQuestionSummaries(api: Api, id: string, range: { since?: string; until?: string } = {}) {
  return call(api.client.GET('/forms/{id}/analytics/questions', { params: { path: { id }, query: range } }));
}

export function listResponses(api: Api, id: string, filters: ResponseFilters) {
  const query: Record<string, unknown> = { ...filters };
  if (filters.completed !== undefined) query.completed = String(filters.completed);
  return call(api.client.GET('/forms/{id}/responses', { params: { path: { id }, query: query as never } }));
}

export function deleteResponse(api: Api, id: string, responseId: string) {
  return call(api.client.DELETE('/forms/{id}/responses/{responseId}', { params: { path: { id, responseId } } }));
}

export function bulkDeleteResponses(api: Api, id: string, ids: string[]) {
  return call(api.client.POST('/forms/{id}/responses/bulk-delete', { params: { path: { id } }, body: { response_ids: ids } }));
}

/** The export's URL for the filter and format (a plain link: the browser streams the download); CSV without `format`. */
export function exportUrl(api: Api, id: string, filter: ResponseFilter = {}, format: 'csv' | 'xlsx' | 'json' = 'csv') {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') query.set(k, String(v));
  if (format !== 'csv') query.set('format', format);
  const q = query.toString();
  return `${api.base.replace(/\/+$/, '')}/forms/${encodeURIComponent(id)}/responses/export${q ? `?${q}` : ''}`;
}
