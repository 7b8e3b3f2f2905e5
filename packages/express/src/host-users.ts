import type { Request } from 'express';
import type { CreateUserInput, Formloom, KeyScope } from '@formloom/core';
import type { AuthenticateHook } from './auth';

/** Who the host's request is from, as the host knows them: at least an email; `null` when not signed in. */
export type HostUserOf = (req: Request) => CreateUserInput | null | Promise<CreateUserInput | null>;

/**
 * An `authenticate` hook for a host with its own sign-in (docs/embedding.md, "Your own users"): `hostUser`
 * says who the request is from (from your session, your JWT...), and the hook maps them to a Formloom user,
 * created on their first request. Safe when a new user's first requests arrive together: one user is made
 * and every request gets it (`accounts.ensureUser`). The principal has the given key scope and no key id.
 */
export function hostUserAuthenticator(formloom: Formloom, hostUser: HostUserOf, scope: KeyScope = 'forms'): AuthenticateHook {
  return async (req) => {
    const who = await hostUser(req);
    if (!who) return null;
    const user = await formloom.accounts.ensureUser(who);
    return { user_id: user.id, key_id: null, scope };
  };
}
