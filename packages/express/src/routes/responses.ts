import { badRequest, exportJson, responseExportJsonOut, analyticsOut, questionSummariesOut, bulkDeleteOut, bulkDeleteSchema, patchResponseSchema, respondentResponseOut, responseListOut, responseOut, submitResponseSchema, submittedResponseOut, successOut } from '@formloom/core';
import { json, param, type QueryParam, type RouteContext, type RouteSpec } from '../route-table';
import { TIME_RANGE_PARAMS } from './query-params';
import { SpamGuard } from '../spam-protection';
import { xlsxStream } from '../xlsx-export';

const p = param;

/** The filters the list and the CSV export share (docs/responses-and-webhooks.md). */
const RESPONSE_FILTER_PARAMS: QueryParam[] = [
  ...TIME_RANGE_PARAMS,
  { name: 'completed', description: 'true: completed only; false: partial only', schema: { type: 'boolean' } },
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
          'csv (the default; document 1\'s CSV, unchanged), xlsx (one sheet: answers as the respondent saw them, yes/no as the page\'s words, dates and numbers typed, then a "(raw)" column per yes/no and choice question) or json (an array of `{id, submitted_at, completed_at, answers: [{question_id, sub_field?, title, label, value}], hidden_fields}`: `label` as seen, `value` as stored)',
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
    ],
    success: { status: 200, description: 'the summaries, one per current question in order', schema: questionSummariesOut },
    errors: [400, 401, 403, 404],
    handler: async (ctx) => json(await ctx.formloom.responses.questionSummaries(ctx.principal, p(ctx, 'id'), ctx.req.query)),
  },
];
