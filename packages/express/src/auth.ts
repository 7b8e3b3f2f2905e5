import type { Request } from 'express';
import { FormloomError, type Formloom, type Principal } from '@formloom/core';

/** A host's own authentication: the caller's principal, or `null` when the request is not authenticated. */
export type AuthenticateHook = (req: Request) => Principal | null | Promise<Principal | null>;

/** The default: `Authorization: Bearer <api key>`, checked against the hashed keys in storage. */
export function apiKeyAuthenticator(formloom: Formloom): AuthenticateHook {
  return async (req) => {
    const header = req.headers.authorization;
    if (!header) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return null;
    return formloom.accounts.authenticate(m[1]!);
  };
}

export async function requirePrincipal(hook: AuthenticateHook, req: Request, scope: string, custom = false): Promise<Principal> {
  const principal = await hook(req);
  if (!principal) {
    const message = custom
      ? 'Authentication required'
      : req.headers.authorization
        ? 'The API key is malformed, unknown, revoked or expired'
        : 'Missing Authorization: Bearer <API key> header';
    throw new FormloomError('UNAUTHORIZED', message);
  }
  // A person signed in with a session owns both scopes' work (docs/accounts.md); keys keep to their scope.
  if (principal.session_id) return { ...principal, scope: scope as Principal['scope'] };
  if (principal.scope !== scope) {
    throw new FormloomError('FORBIDDEN', `This endpoint needs a key with scope "${scope}"`, { reason: 'wrong_key_scope' });
  }
  return principal;
}
