import type { Request } from 'express';
import { FormloomError, type Formloom, type Principal } from '@formloom/core';

/** A host's own authentication: the caller's principal, or `null` when the request is not authenticated. */
export type AuthenticateHook = (req: Request) => Principal | null | Promise<Principal | null>;

/** The default: `Authorization: Bearer <api key>`, checked against the hashed keys in storage. */
export function apiKeyAuthenticator(formloom: Formloom): AuthenticateHook {
  // Not async: the core's promise is handed on as it is (an async step less per request).
  return (req) => {
    const header = req.headers.authorization;
    if (!header) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return null;
    return formloom.accounts.authenticate(m[1]!);
  };
}

export async function requirePrincipal(hook: AuthenticateHook, req: Request, scope: string, custom = false): Promise<Principal> {
  return checkPrincipal(await hook(req), req, scope, custom);
}

/** `requirePrincipal` for a principal already found (or `null`): 401 without one, 403 for a key of another scope. */
export function checkPrincipal(principal: Principal | null, req: Request, scope: string, custom = false): Principal {
  if (!principal) {
    const message = custom
      ? 'Authentication required'
      : req.headers.authorization
        ? 'The API key is malformed, unknown, revoked or expired'
        : 'Missing Authorization: Bearer <API key> header';
    throw new FormloomError('UNAUTHORIZED', message);
  }
  // A person signed in with a session owns both scopes' work (docs/accounts.md); keys keep to their scope,
  // and a host's own hook (`custom`) gets no such exception whatever its principals carry.
  if (principal.session_id && !custom) return { ...principal, scope: scope as Principal['scope'] };
  if (principal.scope !== scope) {
    throw new FormloomError('FORBIDDEN', `This endpoint needs a key with scope "${scope}"`, { reason: 'wrong_key_scope' });
  }
  return principal;
}

/** Formloom API keys start so: the mark that tells a script's key from the host's own bearer tokens. */
const API_KEY_PREFIX = /^Bearer\s+fl_/i;

/**
 * `createFormloomRouter({ authenticate, apiKeys: true })`: a request with a Formloom API key
 * (`Authorization: Bearer fl_...`) is authenticated by that key, and only by it (a bad key is a 401, it
 * never falls through); any other request by the host's hook. People sign in with the host, scripts use keys.
 */
export function hostOrApiKey(host: AuthenticateHook, formloom: Formloom): AuthenticateHook {
  const byKey = apiKeyAuthenticator(formloom);
  return (req) => (API_KEY_PREFIX.test(req.headers.authorization ?? '') ? byKey(req) : host(req));
}
