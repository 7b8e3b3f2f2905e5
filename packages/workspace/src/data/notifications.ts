import { type Api, call } from './client';

/* The notifications part of the API (docs/notifications.md), for the integrations tab. */

export type NewResponses = 'instant' | 'daily' | 'off';
export interface Receipt {
  enabled: boolean;
  question_id: string | null;
  reply_to: string | null;
  subject: string | null;
  message: string | null;
}

export const getNotifications = (api: Api, id: string) => call(api.client.GET('/forms/{id}/notifications', { params: { path: { id } } }));
export const setNotifications = (api: Api, id: string, new_responses: NewResponses) =>
  call(api.client.PUT('/forms/{id}/notifications', { params: { path: { id } }, body: { new_responses } }));
export const getReceipt = (api: Api, id: string) => call(api.client.GET('/forms/{id}/receipt', { params: { path: { id } } }));
export const setReceipt = (api: Api, id: string, receipt: Receipt) => call(api.client.PUT('/forms/{id}/receipt', { params: { path: { id } }, body: receipt }));

