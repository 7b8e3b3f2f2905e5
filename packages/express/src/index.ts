export { createFormloomRouter, BUILT_IN_ROUTES, routeTable, type FormloomRouterOptions } from './router';
export { AREA_ROUTES } from './routes';
export { fromPluginRoute } from './plugin-routes';
export { createPublicPagesRouter, type PublicPagesOptions } from './pages';
export type { InvitationAcceptPages } from './invitation-page';
export {
  DEFAULT_RATE_LIMITS,
  memoryRateLimitStore,
  type RateLimitName,
  type RateLimitOptions,
  type RateLimitRule,
  type RateLimitStore,
} from './rate-limit';
export { parseEmbedOrigins, type EmbedOrigins } from './security-headers';
export { apiKeyAuthenticator, hostOrApiKey, type AuthenticateHook } from './auth';
export { hostUserAuthenticator, type HostUserOf } from './host-users';
export { SESSION_COOKIE, type SessionOptions } from './session-auth';
export { SESSION_SECURITY } from './openapi-security';
export { buildOpenApi, operationIdOf, API_KEY_SECURITY, HOST_SECURITY, type OpenApiOptions, type OpenApiSecurity } from './openapi';
export { errorHandler, notFoundHandler, type ErrorLogger } from './errors';
export { createFormloomErrorHandler } from './host-parsed-body';
export { expressServerClasses, type ExpressServerClasses } from './server-classes';
export { gracefulShutdown, DEFAULT_DRAIN_TIMEOUT_MS, type GracefulShutdown, type GracefulShutdownOptions } from './shutdown';
export { requestLogging, requestIdOf, REQUEST_ID_HEADER, type HttpLogger, type RouterLogger } from './request-log';
export { json, type RouteSpec, type RouteContext, type RouteResult } from './route-table';
// Adapters that have their own packages now, re-exported so hosts that import them from here keep working.
export {
  AddressGuard,
  createFetchTransport,
  createHttpWebhookTransport,
  embeddedIPv4,
  isPrivateAddress,
  type FetchTransportOptions,
  type HttpWebhookTransportOptions,
} from '@formloom/webhook-http';
export { createFileBlobStore } from '@formloom/blob-store-file';
