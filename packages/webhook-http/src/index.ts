import { createHttpWebhookTransport, type HttpWebhookTransportOptions } from './webhook-transport';

export { createHttpWebhookTransport, isPrivateAddress, type HttpWebhookTransportOptions } from './webhook-transport';

/** @deprecated The old name (it never used fetch): use `createHttpWebhookTransport`. */
export const createFetchTransport: (options?: HttpWebhookTransportOptions) => ReturnType<typeof createHttpWebhookTransport> =
  createHttpWebhookTransport;

/** @deprecated Use `HttpWebhookTransportOptions`. */
export type FetchTransportOptions = HttpWebhookTransportOptions;
