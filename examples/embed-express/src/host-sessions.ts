import type { Request, RequestHandler } from 'express';

/** The cookie the host's pages sign in with (its API clients send `X-Session-Token` instead). */
export const SESSION_COOKIE = 'host_session';

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** A user of the host application (not of Formloom). */
export interface HostUser {
  email: string;
  name: string;
}

/**
 * The host's own authentication: an opaque session token in `X-Session-Token`, looked up in a table the
 * host owns. A real host would use cookies and its session store; Formloom never sees any of it.
 */
export class HostSessions {
  constructor(private readonly sessions: Map<string, HostUser>) {}

  userOf(req: Request): HostUser | null {
    const token = req.get('x-session-token') ?? cookieOf(req, SESSION_COOKIE);
    return (token && this.sessions.get(token)) || null;
  }

  /** The host's guard for its own routes, with the host's own 401 body. */
  required(): RequestHandler {
    return (req, res, next) => {
      const user = this.userOf(req);
      if (!user) {
        res.status(401).json({ message: 'Please sign in' });
        return;
      }
      res.locals.user = user;
      next();
    };
  }
}
