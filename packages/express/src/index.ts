export { createFormloomRouter, BUILT_IN_ROUTES, type FormloomRouterOptions } from './router';
export { createPublicPagesRouter, type PublicPagesOptions } from './pages';
export {
  DEFAULT_RATE_LIMITS,
  memoryRateLimitStore,
  type RateLimitName,
  type RateLimitOptions,
  type RateLimitRule,
  type RateLimitStore,
} from './rate-limit';
export { parseEmbedOrigins, type EmbedOrigins } from './security-headers';
export { apiKeyAuthenticator, type AuthenticateHook } from './auth';
export { buildOpenApi } from './openapi';
export { errorHandler, notFoundHandler, type ErrorLogger } from './errors';
export { json, type RouteSpec, type RouteContext, type RouteResult } from './route-table';
export { createFetchTransport, type FetchTransportOptions } from './adapters/webhook-transport';
export { AddressGuard, embeddedIPv4, isPrivateAddress } from './adapters/address-guard';
export { createFileBlobStore } from './adapters/file-blob-store';
