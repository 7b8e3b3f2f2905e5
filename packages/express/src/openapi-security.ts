import type { OpenApiSecurity } from './openapi';

/**
 * The session cookie as an OpenAPI security scheme, declared beside the API key when the router has
 * `sessions` options (docs/accounts.md): every authenticated operation accepts either.
 */
export const SESSION_SECURITY: OpenApiSecurity = {
  name: 'sessionCookie',
  scheme: {
    type: 'apiKey',
    in: 'cookie',
    name: 'formloom_session',
    description:
      'The session cookie of a signed-in person (`POST /auth/signin`). Requests that change state also send `X-Formloom-CSRF` (the `csrf_token` of the sign-in answer) and an `Origin` equal to the public URL; a bearer key in the same request wins.',
  },
};
