import { deliveryListOut, deliveryRetryOut, webhookTestOut, formWebhookOut, formWebhookSchema, globalWebhooksOut, globalWebhooksSchema, webhookSecretOut } from '@formloom/core';
import { json, param, type RouteContext, type RouteSpec } from '../route-table';

const p = param;
const pro = [401, 403];

/** Webhook settings, signing secret and the deliveries log (Pro plan or higher). */
export const webhookRoutes: RouteSpec[] = [
  {
    method: 'get', path: '/forms/:id/webhooks', operationId: 'getFormWebhook', summary: "The form's webhook URL", tag: 'Webhooks', scope: 'forms',
    success: { status: 200, description: '{webhook_url}', schema: formWebhookOut }, errors: [...pro, 404],
    handler: async (ctx) => json(await ctx.formloom.webhooks.getFormWebhook(ctx.principal, p(ctx, 'id'))),
  },
  {
    method: 'put', path: '/forms/:id/webhooks', operationId: 'setFormWebhook', summary: "Set or clear (null) the form's webhook URL", tag: 'Webhooks', scope: 'forms',
    body: formWebhookSchema, success: { status: 200, description: '{webhook_url}', schema: formWebhookOut }, errors: [400, ...pro, 404],
    handler: async (ctx) => json(await ctx.formloom.webhooks.setFormWebhook(ctx.principal, p(ctx, 'id'), ctx.req.body)),
  },
  {
    method: 'get', path: '/forms/:id/webhooks/deliveries', operationId: 'listWebhookDeliveries', summary: 'Webhook deliveries of the form, newest first', tag: 'Webhooks', scope: 'forms',
    success: { status: 200, description: '{deliveries[], total, page, per_page}', schema: deliveryListOut }, errors: [...pro, 404],
    handler: async (ctx) => json(await ctx.formloom.webhooks.listDeliveries(ctx.principal, p(ctx, 'id'), ctx.req.query)),
  },
  {
    method: 'post', path: '/forms/:id/webhooks/deliveries/:deliveryId/retry', operationId: 'retryWebhookDelivery', summary: 'Send a delivery again now', tag: 'Webhooks', scope: 'forms',
    success: { status: 202, description: '{id, status, next_attempt_at}', schema: deliveryRetryOut }, errors: [...pro, 404],
    handler: async (ctx) => json(await ctx.formloom.webhooks.retry(ctx.principal, p(ctx, 'id'), p(ctx, 'deliveryId')), 202),
  },
  {
    method: 'post', path: '/forms/:id/webhooks/test', operationId: 'sendTestWebhook', summary: 'Send a test delivery (event webhook.test) to every current target of the form', tag: 'Webhooks', scope: 'forms',
    success: { status: 202, description: '{deliveries: [{id, url, status}]}', schema: webhookTestOut }, errors: [400, ...pro, 404],
    handler: async (ctx) => json(await ctx.formloom.webhooks.sendTest(ctx.principal, p(ctx, 'id')), 202),
  },
  {
    method: 'get', path: '/webhooks', operationId: 'listGlobalWebhooks', summary: 'Global webhooks of the account', tag: 'Webhooks', scope: 'forms',
    success: { status: 200, description: '{webhooks: [{url, enabled}]}', schema: globalWebhooksOut }, errors: pro,
    handler: async (ctx) => json(await ctx.formloom.webhooks.listGlobal(ctx.principal)),
  },
  {
    method: 'put', path: '/webhooks', operationId: 'replaceGlobalWebhooks', summary: 'Replace the global webhooks (max 5)', tag: 'Webhooks', scope: 'forms',
    body: globalWebhooksSchema, success: { status: 200, description: '{webhooks: [...]}', schema: globalWebhooksOut }, errors: [400, ...pro],
    handler: async (ctx) => json(await ctx.formloom.webhooks.replaceGlobal(ctx.principal, ctx.req.body)),
  },
  {
    method: 'get', path: '/webhooks/secret', operationId: 'getWebhookSecret', summary: 'The signing secret (created on first use)', tag: 'Webhooks', scope: 'forms',
    success: { status: 200, description: '{secret}', schema: webhookSecretOut }, errors: pro,
    handler: async (ctx) => json(await ctx.formloom.webhooks.getSecret(ctx.principal)),
  },
  {
    method: 'post', path: '/webhooks/secret', operationId: 'rotateWebhookSecret', summary: 'Replace the signing secret at once', tag: 'Webhooks', scope: 'forms',
    success: { status: 200, description: '{secret}', schema: webhookSecretOut }, errors: pro,
    handler: async (ctx) => json(await ctx.formloom.webhooks.rotateSecret(ctx.principal)),
  },
];
