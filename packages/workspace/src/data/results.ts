import { type Api, type Schemas, call } from './client';

/* The responses and analytics part of the API, for the results screen (docs/workspace.md, "Results"). */

export type Analytics = Schemas['Analytics'];
export type QuestionSummaries = Schemas['QuestionSummaries'];
export type QuestionSummary = QuestionSummaries['questions'][number];
export type ResponseItem = Schemas['ResponseList']['responses'][number];
export type Funnel = Schemas['Funnel'];

/** The filters the list, the analytics, the summaries and the exports share (docs/responses-and-webhooks.md). */
export interface ResponseFilter {
  since?: string;
  until?: string;
  completed?: boolean;
  /** Text in any answer, ignoring case (the list and the exports only). */
  search?: string;
  /** Only responses to this version. */
  version?: number;
  /** Only responses answered in this language (docs/languages.md). */
  language?: string;
  /** Filters by answer: the JSON text of `{match, conditions}`. */
  filter?: string;
}

/** The filter as query parameters (`completed` and `version` as text). */
function queryOf(filter: ResponseFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') query[k] = String(v);
  return query;
}

export interface ResponseFilters extends ResponseFilter {
  page?: number;
  per_page?: number;
  /** A `next_cursor`: the page after it, by keyset (fast at any depth). */
  cursor?: string;
}

export function getAnalytics(api: Api, id: string, filter: Omit<ResponseFilter, 'search'> = {}) {
  return call(api.client.GET('/forms/{id}/analytics', { params: { path: { id }, query: queryOf(filter) as never } }));
}

export function getQuestionSummaries(api: Api, id: string, filter: Omit<ResponseFilter, 'search'> = {}) {
  return call(api.client.GET('/forms/{id}/analytics/questions', { params: { path: { id }, query: queryOf(filter) as never } }));
}

/** The funnel of `version` (the newest with counts when absent). */
export function getFunnel(api: Api, id: string, version?: number) {
  return call(api.client.GET('/forms/{id}/analytics/funnel', { params: { path: { id }, query: version === undefined ? {} : { version } } }));
}

export function listResponses(api: Api, id: string, filters: ResponseFilters) {
  const query = queryOf(filters);
  return call(api.client.GET('/forms/{id}/responses', { params: { path: { id }, query: query as never } }));
}

export function getResponse(api: Api, id: string, responseId: string) {
  return call(api.client.GET('/forms/{id}/responses/{responseId}', { params: { path: { id, responseId } } }));
}

export function deleteResponse(api: Api, id: string, responseId: string) {
  return call(api.client.DELETE('/forms/{id}/responses/{responseId}', { params: { path: { id, responseId } } }));
}

export function bulkDeleteResponses(api: Api, id: string, ids: string[]) {
  return call(api.client.POST('/forms/{id}/responses/bulk-delete', { params: { path: { id } }, body: { response_ids: ids } }));
}

/** The export's URL for the filter and format (a plain link: the browser streams the download); CSV without `format`. */
export function exportUrl(api: Api, id: string, filter: ResponseFilter = {}, format: 'csv' | 'xlsx' | 'json' = 'csv') {
  const query = new URLSearchParams(queryOf(filter));
  if (format !== 'csv') query.set('format', format);
  const q = query.toString();
  return `${api.base.replace(/\/+$/, '')}/forms/${encodeURIComponent(id)}/responses/export${q ? `?${q}` : ''}`;
}

/** A response's payment (docs/payments.md, "In responses"): amounts in the currency's smallest unit. */
export interface ResponsePayment {
  id: string;
  question_id: string;
  provider: string;
  processor_payment_id: string;
  amount: number;
  currency: string;
  status: 'requires_payment' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'refunded' | 'partially_refunded';
  amount_refunded: number;
}

/** The payments the API lists with a response (absent when it has none). */
export const paymentsOf = (r: ResponseItem): ResponsePayment[] => (r as { payments?: ResponsePayment[] }).payments ?? [];

/**
 * Refunds `amount` (smallest unit; what is left when omitted) of a response's payment at the processor
 * (`POST .../payments/:paymentId/refund`). The same `idempotencyKey` and amount sent again refund nothing more.
 */
export function refundPayment(api: Api, id: string, responseId: string, paymentId: string, amount?: number, idempotencyKey?: string) {
  return call(
    api.client.POST('/forms/{id}/responses/{responseId}/payments/{paymentId}/refund', {
      params: { path: { id, responseId, paymentId }, ...(idempotencyKey ? { header: { 'Idempotency-Key': idempotencyKey } } : {}) },
      body: amount === undefined ? {} : { amount },
    }),
  ) as Promise<ResponsePayment>;
}
