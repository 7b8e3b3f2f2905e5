import { FunnelService, badRequest, exportJson, funnelOut, visitOut, visitSchema, responseExportJsonOut, analyticsOut, questionSummariesOut, bulkDeleteOut, bulkDeleteSchema, patchResponseSchema, respondentResponseOut, responseListOut, responseOut, submitResponseSchema, submittedResponseOut, successOut } from '@formloom/core';
import { json, param, type QueryParam, type RouteContext, type RouteSpec } from '../route-table';
import { TIME_RANGE_PARAMS } from './query-params';
import { SpamGuard } from '../spam-protection';
import { xlsxStream } from '../xlsx-export';

const p = param;

/**
 * The filters by answer and version every results endpoint reads the same way (docs/responses-and-webhooks.md,
 * "Filtering by answer"; core's answer-filter.ts checks them).
 */
const ANSWER_FILTER_PARAMS: QueryParam[] = [
  { name: 'completed', description: 'true: completed only; false: partial only', schema: { type: 'boolean' } },
  { name: 'version', description: 'only responses to this published version (its number)', schema: { type: 'integer', minimum: 1, maximum: 999999999 } },
  { name: 'language', description: 'only responses answered in this language (docs/languages.md)', schema: { type: 'string', maxLength: 35, pattern: '^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$' } },
  {
    name: 'filter',
    description:
      'Filters by answer, JSON text (URL-encoded): `{"match": "all" | "any", "conditions": [{"question_id", "op", "value"}]}`, at most 20 conditions. ' +
      '`op` by question type: yes_no equals, not_equals; number, rating, opinion_scale equals, not_equals, greater_than, less_than, greater_or_equal, ' +
      'less_or_equal, between ([low, high]); multiple_choice, dropdown equals, not_equals, is_any_of (a list), contains, not_contains; short_text, long_text, ' +
      'email contains, not_contains, equals, not_equals, begins_with, ends_with (ignoring case; these read every response of the range); date equals, ' +
      'not_equals, less_than, greater_than, less_or_equal, greater_or_equal, between (YYYY-MM-DD); every type also is_answered and is_not_answered (no value). ' +
      'An unanswered question passes only is_not_answered and the not_ operators. A bad filter is a 400 naming the condition and the problem. ' +
      'Example: `{"match":"all","conditions":[{"question_id":"q_city","op":"equals","value":"Berlin"},{"question_id":"q_nps","op":"greater_or_equal","value":9}]}`',
    schema: { type: 'string', maxLength: 8000 },
  },
];

/** The filters the list and the exports share (docs/responses-and-webhooks.md). */
const RESPONSE_FILTER_PARAMS: QueryParam[] = [
  ...TIME_RANGE_PARAMS,
  ...ANSWER_FILTER_PARAMS,
  {
    name: 'search',
    description: 'only responses with an answer containing this text, ignoring case (at most 200 characters); reads every response of the range',
    schema: { type: 'string', maxLength: 200 },
  },
];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The export's `format`: csv when absent; anything else is a 400 naming the formats. */
function exportFormat(v: unknown): 'csv' | 'xlsx' | 'json' {
  if (v === undefined || v === 'csv' || v === 'xlsx' || v === 'json') return v ?? 'csv';
  throw badRequest('format: must be csv, xlsx or json', { field: 'format' });
}

const header = (ctx: RouteContext, name: string) => {
  const v = ctx.req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
};

/** Respondents' endpoints (public) and owners' response endpoints. */
export const responseRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/public/forms/:slug/responses',
    operationId: 'submitResponse',
    headers: [
      {
        name: 'Idempotency-Key',
        required: false,
        description:
          'Any 1 to 255 characters: a completed submission sent again with the same key (and body) within 24 hours answers the response the first one stored, writing nothing again; another body is 409 `idempotency_conflict`',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    summary: 'Submit a response to the published version (no key)',
    tag: 'Public',
    scope: null,
    body: submitResponseSchema,
    success: { status: 201, description: 'the response; a partial one (`completed_at` null) with its `resume_token`', schema: submittedResponseOut },
    errors: [400, 404, 409],
    handler: async (ctx) =>
      json(
        await ctx.formloom.submissions.submit(p(ctx, 'slug'), ctx.req.body, {
          user_agent: header(ctx, 'user-agent'),
          referer: header(ctx, 'referer'),
          // The form's spam_protection (docs/respondents.md "Spam protection").
          screen: new SpamGuard(ctx.formloom).screen,
          idempotency_key: header(ctx, 'idempotency-key') ?? undefined,
        }),
        201,
      ),
  },
  {
    method: 'patch',
    path: '/public/forms/:slug/responses/:responseId',
    operationId: 'continueResponse',
    headers: [{ name: 'X-Resume-Token', required: true, description: 'The `resume_token` answered when the partial response was created' }],
    summary: 'Add answers to a partial response (X-Resume-Token) and optionally complete it',
    tag: 'Public',
    scope: null,
    body: patchResponseSchema,
    success: { status: 200, description: 'the response', schema: respondentResponseOut },
    errors: [400, 401, 404, 409],
    handler: async (ctx) =>
      json(await ctx.formloom.submissions.patch(p(ctx, 'slug'), p(ctx, 'responseId'), header(ctx, 'x-resume-token') ?? undefined, ctx.req.body)),
  },
  {
    method: 'get',
    path: '/forms/:id/responses',
    operationId: 'listResponses',
    summary: 'List responses, newest first',
    tag: 'Responses',
    scope: 'forms',
    query: [
      { name: 'page', description: 'page (1); ignored with `cursor`', schema: { type: 'integer' } },
      { name: 'per_page', description: 'per page (50, max 100)', schema: { type: 'integer' } },
      ...RESPONSE_FILTER_PARAMS,
      { name: 'cursor', description: 'the `next_cursor` of the previous page (same filters): the next page by keyset, as fast at any depth', schema: { type: 'string' } },
    ],
    success: { status: 200, description: '{responses[], total, page, per_page, next_cursor}', schema: responseListOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.list(ctx.principal, p(ctx, 'id'), ctx.req.query)),
  },
  {
    method: 'get',
    path: '/forms/:id/responses/export',
    operationId: 'exportResponses',
    summary: 'Export responses as CSV (the default), XLSX or JSON (streamed), filtered like the list',
    tag: 'Responses',
    scope: 'forms',
    query: [
      ...RESPONSE_FILTER_PARAMS,
      {
        name: 'format',
        description:
          'csv (the default: answers as stored, a yes/no as true/false), xlsx (one sheet: answers as the respondent saw them, yes/no as the page\'s words, dates and numbers typed, then a "(raw)" column per yes/no and choice question) or json (an array of `{id, submitted_at, completed_at, answers: [{question_id, sub_field?, title, label, value}], hidden_fields}`: `label` as seen, `value` as stored)',
        schema: { type: 'string', enum: ['csv', 'xlsx', 'json'] },
      },
    ],
    success: {
      status: 200,
      description: 'The responses (CSV: UTF-8, one row per response, a column per question; XLSX; or with format=json a JSON array), streamed',
      schema: responseExportJsonOut,
      media: ['text/csv', XLSX],
    },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => {
      const format = exportFormat(ctx.req.query.format);
      const id = p(ctx, 'id');
      const disposition = { 'Content-Disposition': `attachment; filename="responses-${id}.${format}"` };
      if (format === 'csv') {
        return {
          contentType: 'text/csv; charset=utf-8',
          // A client that goes away stops the export: the router ends the iteration, which releases its pages.
          stream: await ctx.formloom.responses.export(ctx.principal, id, ctx.req.query),
          headers: disposition,
        };
      }
      const table = await ctx.formloom.responses.exportTable(ctx.principal, id, ctx.req.query);
      if (format === 'json') return { contentType: 'application/json; charset=utf-8', stream: exportJson(table.columns, table.rows), headers: disposition };
      return { contentType: XLSX, stream: await xlsxStream(table.columns, table.rows), headers: disposition };
    },
  },
  {
    method: 'post',
    path: '/forms/:id/responses/bulk-delete',
    operationId: 'bulkDeleteResponses',
    summary: 'Delete up to 100 responses of the form (all or none)',
    tag: 'Responses',
    scope: 'forms',
    body: bulkDeleteSchema,
    success: { status: 200, description: '{deleted}', schema: bulkDeleteOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.bulkDelete(ctx.principal, p(ctx, 'id'), ctx.req.body)),
  },
  {
    method: 'get',
    path: '/forms/:id/responses/:responseId',
    operationId: 'getResponse',
    summary: 'Get one response',
    tag: 'Responses',
    scope: 'forms',
    success: { status: 200, description: 'the response', schema: responseOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.get(ctx.principal, p(ctx, 'id'), p(ctx, 'responseId'))),
  },
  {
    method: 'delete',
    path: '/forms/:id/responses/:responseId',
    operationId: 'deleteResponse',
    summary: 'Delete one response',
    tag: 'Responses',
    scope: 'forms',
    success: { status: 200, description: '{success: true}', schema: successOut },
    errors: [401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.delete(ctx.principal, p(ctx, 'id'), p(ctx, 'responseId'))),
  },
  {
    method: 'get',
    path: '/forms/:id/analytics',
    operationId: 'getFormAnalytics',
    summary: 'Response analytics computed by the database',
    tag: 'Analytics',
    scope: 'forms',
    query: [
      { name: 'since', description: 'YYYY-MM-DD, inclusive', schema: { type: 'string', format: 'date' } },
      { name: 'until', description: 'YYYY-MM-DD, inclusive', schema: { type: 'string', format: 'date' } },
      ...ANSWER_FILTER_PARAMS,
    ],
    success: { status: 200, description: 'the analytics object', schema: analyticsOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.analytics(ctx.principal, p(ctx, 'id'), ctx.req.query)),
  },
  {
    method: 'get',
    path: '/forms/:id/analytics/questions',
    operationId: 'getQuestionSummaries',
    summary: 'Per-question answer summaries (distributions, mean, NPS, median, latest text answers) from the analytics rollup',
    tag: 'Analytics',
    scope: 'forms',
    query: [
      { name: 'since', description: 'YYYY-MM-DD, inclusive', schema: { type: 'string', format: 'date' } },
      { name: 'until', description: 'YYYY-MM-DD, inclusive', schema: { type: 'string', format: 'date' } },
      ...ANSWER_FILTER_PARAMS,
    ],
    success: { status: 200, description: 'the summaries, one per current question in order', schema: questionSummariesOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.questionSummaries(ctx.principal, p(ctx, 'id'), ctx.req.query)),
  },
  {
    method: 'get',
    path: '/forms/:id/analytics/funnel',
    operationId: 'getFormFunnel',
    summary: 'The funnel of one version: views, starts, each question reached, completed, with drop-off and the median time to complete',
    tag: 'Analytics',
    scope: 'forms',
    query: [{ name: 'version', description: 'the version (its number); default: the newest with counts, else the published one', schema: { type: 'integer', minimum: 1, maximum: 999999999 } }],
    success: { status: 200, description: 'the funnel', schema: funnelOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.service(FunnelService).funnel(ctx.principal, p(ctx, 'id'), ctx.req.query)),
  },
  {
    method: 'post',
    path: '/public/forms/:slug/visits',
    operationId: 'recordVisit',
    summary: "The respondent's page reports a view or a start, for the funnel (no key)",
    tag: 'Public',
    scope: null,
    body: visitSchema,
    success: { status: 200, description: '{success: true}', schema: visitOut },
    errors: [400, 404],
    handler: async (ctx) => json(await ctx.formloom.service(FunnelService).recordVisit(p(ctx, 'slug'), ctx.req.body)),
  },
];
