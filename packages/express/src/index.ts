export { createFormloomRouter, BUILT_IN_ROUTES, type FormloomRouterOptions } from './router';
export { createPublicPagesRouter } from './pages';
export { apiKeyAuthenticator, type AuthenticateHook } from './auth';
export { buildOpenApi } from './openapi';
export { errorHandler, notFoundHandler, type ErrorLogger } from './errors';
export { json, type RouteSpec, type RouteContext, type RouteResult } from './route-table';
// Adapters that have their own packages now, re-exported so hosts that import them from here keep working.
export {
  createFetchTransport,
  createHttpWebhookTransport,
  isPrivateAddress,
  type FetchTransportOptions,
  type HttpWebhookTransportOptions,
} from '@formloom/webhook-http';
export { createFileBlobStore } from '@formloom/blob-store-file';
