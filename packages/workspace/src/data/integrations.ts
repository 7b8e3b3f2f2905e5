import { type Api, type Schemas, call } from './client';

/* The integrations part of the API (docs/integrations.md), for the Integrations tab. */

export type IntegrationType = Schemas['IntegrationType'];
export type IntegrationField = Schemas['IntegrationField'];
export type Integration = Schemas['Integration'];
export type IntegrationDelivery = Schemas['IntegrationDelivery'];
export type IntegrationTest = Schemas['IntegrationTest'];
export type FieldMapping = Array<{ question_id: string; name?: string | null }> | null;
export interface IntegrationInput {
  name?: string;
  config?: Record<string, string | boolean | null>;
  fields?: FieldMapping;
  status?: 'active' | 'paused';
}

const one = (id: string, integrationId: string) => ({ params: { path: { id, integrationId } } });

export const listIntegrationTypes = (api: Api) => call(api.client.GET('/integrations/types', {}));
export const listIntegrations = (api: Api, id: string) => call(api.client.GET('/forms/{id}/integrations', { params: { path: { id } } }));
export const createIntegration = (api: Api, id: string, body: IntegrationInput & { type: string }) =>
  call(api.client.POST('/forms/{id}/integrations', { params: { path: { id } }, body }));
export const updateIntegration = (api: Api, id: string, integrationId: string, body: IntegrationInput) =>
  call(api.client.PATCH('/forms/{id}/integrations/{integrationId}', { ...one(id, integrationId), body }));
export const deleteIntegration = (api: Api, id: string, integrationId: string) => call(api.client.DELETE('/forms/{id}/integrations/{integrationId}', one(id, integrationId)));
export const testIntegration = (api: Api, id: string, integrationId: string) => call(api.client.POST('/forms/{id}/integrations/{integrationId}/test', one(id, integrationId)));
export const listIntegrationDeliveries = (api: Api, id: string, integrationId: string) =>
  call(api.client.GET('/forms/{id}/integrations/{integrationId}/deliveries', { params: { path: { id, integrationId }, query: { limit: 20 } } }));
export const retryIntegrationDelivery = (api: Api, id: string, integrationId: string, deliveryId: string) =>
  call(api.client.POST('/forms/{id}/integrations/{integrationId}/deliveries/{deliveryId}/retry', { params: { path: { id, integrationId, deliveryId } } }));
