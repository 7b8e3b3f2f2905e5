import { isFormloomError, type AccountService, type Principal } from '@formloom/core';
import type { AuthenticateHook } from '@formloom/express';
import type { HostSessions, HostUser } from './host-sessions';

/**
 * Formloom's `authenticate` hook on top of the host's sessions: a signed-in host user becomes a
 * Formloom user (created on first sight, matched by email afterwards); anyone else gets Formloom's 401.
 */
export function hostAuthenticator(sessions: HostSessions, accounts: AccountService): AuthenticateHook {
  const userIds = new Map<string, string>();
  return async (req): Promise<Principal | null> => {
    const hostUser = sessions.userOf(req);
    if (!hostUser) return null;
    let userId = userIds.get(hostUser.email);
    if (!userId) {
      userId = await formloomUserId(accounts, hostUser);
      userIds.set(hostUser.email, userId);
    }
    return { user_id: userId, key_id: null, scope: 'forms' };
  };
}

async function formloomUserId(accounts: AccountService, hostUser: HostUser): Promise<string> {
  const existing = await findByEmail(accounts, hostUser.email);
  if (existing) return existing;
  const [first_name, ...rest] = hostUser.name.split(' ');
  try {
    const user = await accounts.createUser({ email: hostUser.email, first_name, last_name: rest.join(' ') || null, verified: true });
    return user.id;
  } catch (e) {
    // Two first requests of the same user raced; the other one created it.
    const raced = isFormloomError(e) && e.code === 'CONFLICT' ? await findByEmail(accounts, hostUser.email) : null;
    if (raced) return raced;
    throw e;
  }
}

async function findByEmail(accounts: AccountService, email: string): Promise<string | null> {
  try {
    return (await accounts.findUser(email)).id;
  } catch (e) {
    if (isFormloomError(e) && e.code === 'NOT_FOUND') return null;
    throw e;
  }
}
