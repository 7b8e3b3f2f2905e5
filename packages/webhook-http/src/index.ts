import { createHttpWebhookTransport, type HttpWebhookTransportOptions } from './webhook-transport';

export { createHttpWebhookTransport, type HttpWebhookTransportOptions } from './webhook-transport';
export { AddressGuard, embeddedIPv4, isPrivateAddress } from './address-guard';

/** @deprecated The old name (it never used fetch): use `createHttpWebhookTransport`. */
export const createFetchTransport: (options?: HttpWebhookTransportOptions) => ReturnType<typeof createHttpWebhookTransport> =
  createHttpWebhookTransport;

/** @deprecated Use `HttpWebhookTransportOptions`. */
export type FetchTransportOptions = HttpWebhookTransportOptions;
