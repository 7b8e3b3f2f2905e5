import { type Api, type Schemas, call } from './client';

/* The responses and analytics part of the API, for the results screen (docs/workspace.md, "Results"). */

export type Analytics = Schemas['Analytics'];
export type QuestionSummaries = Schemas['QuestionSummaries'];
export type QuestionSummary = QuestionSummaries['questions'][number];
export type ResponseItem = Schemas['ResponseList']['responses'][number];

export interface ResponseFilters {
  since?: string;
  until?: string;
  completed?: boolean;
  page?: number;
  per_page?: number;
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

/** The CSV export's URL (a plain link: the browser streams the download). */
export const exportUrl = (api: Api, id: string) => `${api.base.replace(/\/+$/, '')}/forms/${encodeURIComponent(id)}/responses/export`;
