import {
  AccountDeletionService,
  adminDeletionSchema,
  deletionDoneOut,
  deletionPlanOut,
  InstanceAdminService,
  adminCreditsOut,
  adminCreditsSchema,
  adminPeopleOut,
  adminPersonDetailOut,
  adminPlanSchema,
  adminStuckOut,
  PLAN_NAMES,
} from '@formloom/core';
import { param, type RouteContext, type RouteResult, type RouteSpec } from '../route-table';
import type { SessionMount } from '../session-auth';

const TAG = 'Admin';
const ADMIN_ONLY = 'Only the instance\'s administrator (docs/accounts.md); 403 for anyone else.';

/**
 * The instance admin's area (docs/accounts.md, "The admin area"): people and their plans, credits and keys,
 * and the outbox's stuck items, as the CLI has them. Served with `sessions` options; a session or the
 * admin's own forms key may call them, and every route answers 403 to anyone but the admin.
 */
export function adminRoutes(mount: SessionMount): RouteSpec[] {
  const admin = () => mount.formloom.service(InstanceAdminService);
  const route = (spec: Omit<RouteSpec, 'tag' | 'scope' | 'errors'> & { errors?: number[] }): RouteSpec => ({
    ...spec,
    summary: `${spec.summary}. ${ADMIN_ONLY}`,
    tag: TAG,
    scope: 'forms',
    errors: [403, ...(spec.errors ?? [])],
  });
  const noContent = (run: (ctx: RouteContext) => Promise<void>) => async (ctx: RouteContext): Promise<RouteResult> => {
    await run(ctx);
    return { status: 204, body: undefined };
  };
  return [
    route({
      method: 'get',
      path: '/admin/users',
      operationId: 'adminListPeople',
      summary: 'People of the instance, oldest first, with search and filters',
      query: [
        { name: 'q', description: 'part of the email or name', schema: { type: 'string', maxLength: 200 } },
        { name: 'plan', description: 'only people on this plan', schema: { type: 'string', enum: [...PLAN_NAMES] } },
        { name: 'verified', description: 'only people whose email is (true) or is not (false) verified', schema: { type: 'string', enum: ['true', 'false'] } },
        { name: 'admin', description: 'only the admin (true) or everyone else (false)', schema: { type: 'string', enum: ['true', 'false'] } },
        { name: 'offset', description: 'skip this many (default 0)', schema: { type: 'integer', minimum: 0 } },
        { name: 'limit', description: 'at most this many (1-200, default 50)', schema: { type: 'integer', minimum: 1, maximum: 200 } },
      ],
      success: { status: 200, description: '{people[], total}', schema: adminPeopleOut },
      errors: [400],
      handler: async (ctx) => ({ body: await admin().listPeople(ctx.principal, ctx.req.query as Record<string, unknown>) }),
    }),
    route({
      method: 'get',
      path: '/admin/users/:userId',
      operationId: 'adminGetPerson',
      summary: 'One person, their credit balance and their API keys (revoked ones too, never a secret)',
      success: { status: 200, description: '{person, credits, api_keys[]}', schema: adminPersonDetailOut },
      errors: [404],
      handler: async (ctx) => ({ body: await admin().person(ctx.principal, param(ctx, 'userId')) }),
    }),
    route({
      method: 'patch',
      path: '/admin/users/:userId',
      operationId: 'adminSetPlan',
      summary: "Move a person to another plan (what `formloom plan set` does)",
      body: adminPlanSchema,
      success: { status: 200, description: '{person, credits, api_keys[]}', schema: adminPersonDetailOut },
      errors: [400, 404],
      handler: async (ctx) => ({ body: await admin().setPlan(ctx.principal, param(ctx, 'userId'), ctx.req.body) }),
    }),
    route({
      method: 'post',
      path: '/admin/users/:userId/credits',
      operationId: 'adminAddCredits',
      summary: 'Add credits to a person (recorded as a purchase, like `formloom credits purchase`)',
      body: adminCreditsSchema,
      success: { status: 200, description: '{user_id, credits}: the new balance', schema: adminCreditsOut },
      errors: [400, 404],
      handler: async (ctx) => ({ body: await admin().addCredits(ctx.principal, param(ctx, 'userId'), ctx.req.body) }),
    }),
    route({
      method: 'delete',
      path: '/admin/users/:userId/api-keys/:keyId',
      operationId: 'adminRevokeApiKey',
      summary: "Revoke one of a person's API keys at once",
      success: { status: 204, description: 'revoked' },
      errors: [404],
      handler: noContent((ctx) => admin().revokeKey(ctx.principal, param(ctx, 'userId'), param(ctx, 'keyId'))),
    }),
    route({
      method: 'get',
      path: '/admin/users/:userId/deletion',
      operationId: 'adminPlanDeletion',
      summary: "What deleting a person's account would delete, and what must be done first",
      success: { status: 200, description: '{forms, responses, signed_contracts, teams_deleted[], teams_left[], blockers[]}', schema: deletionPlanOut },
      errors: [404],
      handler: async (ctx) => ({ body: await mount.formloom.service(AccountDeletionService).planFor(ctx.principal, param(ctx, 'userId')) }),
    }),
    route({
      method: 'delete',
      path: '/admin/users/:userId',
      operationId: 'adminDeletePerson',
      summary: "Delete a person's account, as they could from their account page (irreversible)",
      body: adminDeletionSchema,
      success: { status: 200, description: '{deleted, forms, responses, teams_deleted}', schema: deletionDoneOut },
      errors: [400, 404, 409],
      handler: async (ctx) => ({ body: await mount.formloom.service(AccountDeletionService).deleteAsAdmin(ctx.principal, param(ctx, 'userId'), ctx.req.body) }),
    }),
    route({
      method: 'get',
      path: '/admin/outbox',
      operationId: 'adminListStuck',
      summary: 'Mails and deliveries that could not go out (failed, or waiting for a retry after a failure), never a payload',
      success: { status: 200, description: '{items[]}', schema: adminStuckOut },
      handler: async (ctx) => ({ body: await admin().stuck(ctx.principal) }),
    }),
    route({
      method: 'post',
      path: '/admin/outbox/:itemId/retry',
      operationId: 'adminRetryStuck',
      summary: 'Send a stuck item again now',
      success: { status: 204, description: 'due now' },
      errors: [404],
      handler: noContent((ctx) => admin().retry(ctx.principal, param(ctx, 'itemId'))),
    }),
    route({
      method: 'delete',
      path: '/admin/outbox/:itemId',
      operationId: 'adminDropStuck',
      summary: 'Give up on a stuck item for good',
      success: { status: 204, description: 'dropped' },
      errors: [404],
      handler: noContent((ctx) => admin().drop(ctx.principal, param(ctx, 'itemId'))),
    }),
  ];
}
