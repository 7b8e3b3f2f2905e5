import { type Api, call } from './client';

/*
 * The owner's calendar connection for booking questions (docs/booking.md, "Connecting a calendar"). The routes
 * are in the OpenAPI document; they are called loosely typed here until api-types.d.ts is regenerated with them.
 */

export interface CalendarConnection {
  available: boolean;
  connected: boolean;
  booking_allowed: boolean;
  url: string | null;
  username: string | null;
  calendar_url: string | null;
  calendar_name: string | null;
  updated_at: string | null;
}

type Loose = {
  GET(path: string, init?: unknown): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  PUT(path: string, init?: unknown): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  POST(path: string, init?: unknown): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  DELETE(path: string, init?: unknown): Promise<{ data?: unknown; error?: unknown; response: Response }>;
};
const loose = (api: Api) => api.client as unknown as Loose;

export const getCalendar = async (api: Api) => ((await call(loose(api).GET('/calendar/connection'))) as { data: CalendarConnection }).data;
export const connectCalendar = async (api: Api, body: { url: string; username: string; password: string }) =>
  ((await call(loose(api).PUT('/calendar/connection', { body }))) as { data: CalendarConnection }).data;
export const testCalendar = async (api: Api) => (await call(loose(api).POST('/calendar/connection/test'))) as { ok: true; calendar_url: string; calendar_name: string | null };
export const disconnectCalendar = async (api: Api) => void (await call(loose(api).DELETE('/calendar/connection')));

/** What one confirmation call costs and whether the owner's credits cover it (docs/booking.md, "What it costs"). */
export interface CallQuote {
  credits_per_call: number;
  calls_covered_at_publish: number;
  balance: number;
  enough: boolean;
  configured: boolean;
}
export const getCallQuote = async (api: Api, formId: string) =>
  ((await call(loose(api).GET(`/forms/${encodeURIComponent(formId)}/bookings/call-quote`))) as { data: CallQuote }).data;
