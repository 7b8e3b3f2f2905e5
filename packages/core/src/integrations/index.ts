import { defineRoute, definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { successOut } from '../api-schemas';
import { IntegrationDeliveries } from './integration-deliveries';
import { IntegrationService } from './integration-service';
import { SubmissionService } from '../responses/submission-service';
import {
  deliveriesQuery, integrationCreateSchema, integrationDeliveriesOut, integrationListOut, integrationOut, integrationRetryOut, integrationTestOut, integrationTypesOut, integrationUpdateSchema,
} from './integration-schemas';

export * from './integration-types';
export * from './integration-config';
export * from './integration-payload';
export * from './integration-registry';
export * from './integration-deliveries';
export * from './integration-service';
export * from './integration-schemas';
export * from './outgoing-http';
export * from './service-answers';

const tags = ['Integrations'];
const one = '/forms/:id/integrations/:integrationId';

/**
 * Integrations (docs/integrations.md): plugins describe integration types (`integrations` of a plugin); this
 * area stores each form's integrations, serves the API the workspace's Integrations tab uses, and delivers
 * completed responses to them through the outbox.
 */
export const integrationsArea = definePlugin({
  name: 'integrations',
  version: CORE_VERSION,
  services: [IntegrationService, IntegrationDeliveries],
  outboxHandlers: (ctx) => [ctx.service(IntegrationDeliveries)],
  inTransaction: {
    'response.submitted': ({ form_id, response_id }, tx, ctx) =>
      ctx.service(IntegrationDeliveries).queue(tx, form_id, response_id, ctx.service(SubmissionService).committingIn(tx, response_id)),
  },
  routes: (ctx) => {
    const svc = () => ctx.service(IntegrationService);
    return [
      defineRoute({
        method: 'get', path: '/integrations/types', scope: 'forms', operationId: 'listIntegrationTypes', tags,
        summary: 'The integration types of this instance (one per plugin-provided integration), each with its settings form',
        success: { status: 200, description: '{types}', schema: integrationTypesOut }, errors: [401, 403],
        handler: async () => ({ body: svc().types() }),
      }),
      defineRoute({
        method: 'get', path: '/forms/:id/integrations', scope: 'forms', operationId: 'listFormIntegrations', tags,
        summary: "The form's integrations (anyone who may read its responses); secret settings are never answered",
        success: { status: 200, description: '{integrations}', schema: integrationListOut }, errors: [401, 403, 404],
        handler: async (req) => ({ body: await svc().list(req.principal, String(req.params.id)) }),
      }),
      defineRoute({
        method: 'post', path: '/forms/:id/integrations', scope: 'forms', operationId: 'createFormIntegration', tags,
        summary: 'Adds an integration to the form (editors): its type, settings and field mapping; each completed response is then delivered to it',
        body: integrationCreateSchema,
        success: { status: 201, description: 'The integration', schema: integrationOut }, errors: [400, 401, 403, 404],
        handler: async (req) => ({ status: 201, body: await svc().create(req.principal, String(req.params.id), req.body) }),
      }),
      defineRoute({
        method: 'get', path: one, scope: 'forms', operationId: 'getFormIntegration', tags,
        summary: 'One integration of the form',
        success: { status: 200, description: 'The integration', schema: integrationOut }, errors: [401, 403, 404],
        handler: async (req) => ({ body: await svc().get(req.principal, String(req.params.id), String(req.params.integrationId)) }),
      }),
      defineRoute({
        method: 'patch', path: one, scope: 'forms', operationId: 'updateFormIntegration', tags,
        summary: 'Changes an integration (editors): its name, settings (a secret left out or empty keeps its value), field mapping, or status (paused / active)',
        body: integrationUpdateSchema,
        success: { status: 200, description: 'The integration', schema: integrationOut }, errors: [400, 401, 403, 404],
        handler: async (req) => ({ body: await svc().update(req.principal, String(req.params.id), String(req.params.integrationId), req.body) }),
      }),
      defineRoute({
        method: 'delete', path: one, scope: 'forms', operationId: 'deleteFormIntegration', tags,
        summary: 'Deletes an integration and its delivery log (editors)',
        success: { status: 200, description: '{success: true}', schema: successOut }, errors: [401, 403, 404],
        handler: async (req) => {
          await svc().remove(req.principal, String(req.params.id), String(req.params.integrationId));
          return { body: { success: true as const } };
        },
      }),
      defineRoute({
        method: 'post', path: `${one}/test`, scope: 'forms', operationId: 'testFormIntegration', tags,
        summary: "Sends a test at once (editors): the form's newest completed response, or made-up answers; answers the receiver's status and the start of its answer, and logs it",
        success: { status: 200, description: 'What the receiver answered', schema: integrationTestOut }, errors: [401, 403, 404],
        handler: async (req) => ({ body: await svc().test(req.principal, String(req.params.id), String(req.params.integrationId)) }),
      }),
      defineRoute({
        method: 'get', path: `${one}/deliveries`, scope: 'forms', operationId: 'listIntegrationDeliveries', tags,
        summary: "The integration's newest deliveries, newest first: status, attempts, the receiver's answer, the next retry or the error",
        query: deliveriesQuery,
        success: { status: 200, description: '{deliveries}', schema: integrationDeliveriesOut }, errors: [400, 401, 403, 404],
        handler: async (req) => ({ body: await svc().listDeliveries(req.principal, String(req.params.id), String(req.params.integrationId), req.query.limit) }),
      }),
      defineRoute({
        method: 'post', path: `${one}/deliveries/:deliveryId/retry`, scope: 'forms', operationId: 'retryIntegrationDelivery', tags,
        summary: 'Sends a delivery again now (editors)',
        success: { status: 202, description: 'Queued', schema: integrationRetryOut }, errors: [401, 403, 404],
        handler: async (req) => ({ status: 202, body: await svc().retry(req.principal, String(req.params.id), String(req.params.integrationId), String(req.params.deliveryId)) }),
      }),
    ];
  },
});
