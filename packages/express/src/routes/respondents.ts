import { RespondentDataService, respondentErasedOut, respondentQuerySchema, respondentResponsesOut } from '@formloom/core';
import { json, type RouteContext, type RouteSpec } from '../route-table';

const QUERY = [
  { name: 'email', description: 'An email address the respondent gave (an answer or a hidden field), matched whole and case-insensitively', schema: { type: 'string', maxLength: 320 } },
  { name: 'visitor_id', description: "The visitor id the respondent's page sent", schema: { type: 'string', maxLength: 200 } },
];

const service = (ctx: RouteContext) => ctx.formloom.service(RespondentDataService);
const ADMIN = "Only the instance's administrator; 403 for anyone else.";

/** A respondent's rights (docs/privacy.md): find, export and erase what one person submitted. */
export const respondentRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/respondents/responses',
    operationId: 'findRespondentResponses',
    summary: "One respondent's responses in the forms you may read, by email address or visitor id (their data, to export)",
    tag: 'Respondents',
    scope: 'forms',
    query: QUERY,
    success: { status: 200, description: '{responses[], total}', schema: respondentResponsesOut },
    errors: [400, 401],
    handler: async (ctx) => json(await service(ctx).find(ctx.principal, ctx.req.query)),
  },
  {
    method: 'post',
    path: '/respondents/erase',
    operationId: 'eraseRespondent',
    summary: "Erase one respondent's responses, files and deliveries in the forms where you may delete responses (irreversible)",
    tag: 'Respondents',
    scope: 'forms',
    body: respondentQuerySchema,
    success: { status: 200, description: '{erased, forms, files, kept[]}', schema: respondentErasedOut },
    errors: [400, 401],
    handler: async (ctx) => json(await service(ctx).erase(ctx.principal, ctx.req.body)),
  },
  {
    method: 'get',
    path: '/admin/respondents/responses',
    operationId: 'adminFindRespondentResponses',
    summary: `One respondent's responses in every form of the instance. ${ADMIN}`,
    tag: 'Admin',
    scope: 'forms',
    query: QUERY,
    success: { status: 200, description: '{responses[], total}', schema: respondentResponsesOut },
    errors: [400, 401, 403],
    handler: async (ctx) => json(await service(ctx).find(ctx.principal, ctx.req.query, true)),
  },
  {
    method: 'post',
    path: '/admin/respondents/erase',
    operationId: 'adminEraseRespondent',
    summary: `Erase one respondent's responses in every form of the instance (irreversible). ${ADMIN}`,
    tag: 'Admin',
    scope: 'forms',
    body: respondentQuerySchema,
    success: { status: 200, description: '{erased, forms, files, kept[]}', schema: respondentErasedOut },
    errors: [400, 401, 403],
    handler: async (ctx) => json(await service(ctx).erase(ctx.principal, ctx.req.body, true)),
  },
];
