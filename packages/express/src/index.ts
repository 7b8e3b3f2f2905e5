export { createFormloomRouter, BUILT_IN_ROUTES, type FormloomRouterOptions } from './router';
export { createPublicPagesRouter } from './pages';
export { apiKeyAuthenticator, type AuthenticateHook } from './auth';
export { buildOpenApi } from './openapi';
export { errorHandler, notFoundHandler, type ErrorLogger } from './errors';
export { json, type RouteSpec, type RouteContext, type RouteResult } from './route-table';
export { createFetchTransport, type FetchTransportOptions } from './adapters/webhook-transport';
export { AddressGuard, embeddedIPv4, isPrivateAddress } from './adapters/address-guard';
export { createFileBlobStore } from './adapters/file-blob-store';
