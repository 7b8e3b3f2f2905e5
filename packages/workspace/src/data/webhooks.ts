import { type Api, type Schemas, call } from './client';

/* The webhooks part of the API, for the integrations tab (docs/workspace.md, "Integrations"). */

export type GlobalWebhook = Schemas['GlobalWebhook'];
export type Delivery = Schemas['WebhookDelivery'];

export const getFormWebhook = (api: Api, id: string) => call(api.client.GET('/forms/{id}/webhooks', { params: { path: { id } } }));
export const setFormWebhook = (api: Api, id: string, url: string | null) =>
  call(api.client.PUT('/forms/{id}/webhooks', { params: { path: { id } }, body: { url } }));
export const listDeliveries = (api: Api, id: string, page = 1) =>
  call(api.client.GET('/forms/{id}/webhooks/deliveries', { params: { path: { id }, query: { page, per_page: 20 } as never } }));
export const resendDelivery = (api: Api, id: string, deliveryId: string) =>
  call(api.client.POST('/forms/{id}/webhooks/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId } } }));
export const listGlobalWebhooks = (api: Api) => call(api.client.GET('/webhooks', {}));
export const replaceGlobalWebhooks = (api: Api, webhooks: GlobalWebhook[]) => call(api.client.PUT('/webhooks', { body: { webhooks } }));
export const getWebhookSecret = (api: Api) => call(api.client.GET('/webhooks/secret', {}));
export const rotateWebhookSecret = (api: Api) => call(api.client.POST('/webhooks/secret', {}));
export const sendTestWebhook = (api: Api, id: string) => call(api.client.POST('/forms/{id}/webhooks/test', { params: { path: { id } } }));
