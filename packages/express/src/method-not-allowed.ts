import type { RequestHandler, Router } from 'express';
import { FormloomError } from '@formloom/core';

/*
 * A path the API serves, asked with a method it does not have, answers 405 with `Allow` in the structured
 * error shape (docs/decisions.md "Errors"), not "No route": a client learns the path is right and the
 * method wrong. `OPTIONS` answers 204 with the same `Allow` (CORS preflights of `/public/` are answered
 * before, by cors.ts).
 */

/** Registers, after every real route, one catch-all per served path that answers the methods it lacks. */
export function mountMethodNotAllowed(router: Router, routes: readonly { method: string; path: string }[], extra: readonly { method: string; path: string }[] = []): void {
  const byPath = new Map<string, Set<string>>();
  for (const r of [...routes, ...extra]) {
    const methods = byPath.get(r.path) ?? new Set<string>();
    methods.add(r.method.toUpperCase());
    // Express answers HEAD with the GET route.
    if (r.method.toUpperCase() === 'GET') methods.add('HEAD');
    byPath.set(r.path, methods);
  }
  for (const [path, methods] of byPath) router.all(path, methodNotAllowed([...methods, 'OPTIONS'].sort().join(', ')));
}

function methodNotAllowed(allow: string): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allow);
    if (req.method === 'OPTIONS') return void res.status(204).end();
    const e = new FormloomError('METHOD_NOT_ALLOWED', `${req.method} is not served at ${req.baseUrl}${req.path}; allowed: ${allow}`);
    res.status(405).json(e.toBody());
  };
}
