/*
 * The workspace's URLs (docs/workspace.md and the sign-in contract): matched on the client, each naming a
 * screen. The server answers the same page for all of them (src/server/router.ts, WORKSPACE_PATHS).
 */

export type RouteName = 'forms' | 'form' | 'signin' | 'signup' | 'forgot' | 'auth-link' | 'auth-reset' | 'auth-verify' | 'auth-finish' | 'account' | 'admin' | 'teams' | 'team' | 'voice' | 'not-found';

export interface Route {
  name: RouteName;
  /** The form id of `/forms/:id...`. */
  formId?: string;
  /** The builder's tab: `questions` (default), `settings`, `theme`, `publish`, `versions`, `share`, `results`, `signing`, `integrations`; the voice screen's: `studio`, `library`, `credits`. */
  tab?: string;
  /** The signing session of `/forms/:id/signing/:sessionId`. */
  sessionId?: string;
  /** The team id of `/teams/:id`. */
  teamId?: string;
  query: URLSearchParams;
}

export const BUILDER_TABS = ['questions', 'settings', 'theme', 'publish', 'versions', 'share', 'results', 'signing', 'integrations'] as const;
export type BuilderTab = (typeof BUILDER_TABS)[number];

const FIXED: Record<string, RouteName> = {
  '/': 'forms',
  '/signin': 'signin',
  '/signup': 'signup',
  '/forgot': 'forgot',
  '/auth/link': 'auth-link',
  '/auth/reset': 'auth-reset',
  '/auth/verify': 'auth-verify',
  '/auth/finish': 'auth-finish',
  '/account': 'account',
  '/admin': 'admin',
  '/teams': 'teams',
  '/voice': 'voice',
};

/** The route of a location, relative to where the workspace is mounted (`base`, '' at the root). */
export function matchRoute(pathname: string, search: string, base: string): Route {
  const query = new URLSearchParams(search);
  let path = base && pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const fixed = FIXED[path];
  if (fixed) return { name: fixed, query };
  // A tab may have one level below it: a signing session (`/forms/:id/signing/:sessionId`).
  const m = /^\/forms\/([^/]+)(?:\/([a-z]+)(?:\/([^/]+))?)?$/.exec(path);
  if (m && (!m[2] || (BUILDER_TABS as readonly string[]).includes(m[2])) && (!m[3] || m[2] === 'signing')) {
    return { name: 'form', formId: decodeURIComponent(m[1]!), tab: m[2] ?? 'questions', ...(m[3] ? { sessionId: decodeURIComponent(m[3]) } : {}), query };
  }
  // The admin area's other tabs: the outbox's stuck items, and the backups.
  if (path === '/admin/outbox' || path === '/admin/backups' || path === '/admin/respondents') return { name: 'admin', tab: path.slice('/admin/'.length), query };
  const v = /^\/voice\/(library|credits)$/.exec(path);
  if (v) return { name: 'voice', tab: v[1], query };
  // `/teams/invite/<token>` is the public accept page (docs/teams.md), one segment deeper: never a team.
  const t = /^\/teams\/([^/]+)$/.exec(path);
  if (t) return { name: 'team', teamId: decodeURIComponent(t[1]!), query };
  return { name: 'not-found', query };
}

/** The path of a form's tab under `base`. */
export function formPath(base: string, id: string, tab: string = 'questions'): string {
  return `${base}/forms/${encodeURIComponent(id)}${tab === 'questions' ? '' : `/${tab}`}`;
}

/** The path of one signing session of a form under `base`. */
export function signingSessionPath(base: string, formId: string, sessionId: string): string {
  return `${formPath(base, formId, 'signing')}/${encodeURIComponent(sessionId)}`;
}

/** The path of a team's screen under `base`. */
export function teamPath(base: string, id: string): string {
  return `${base}/teams/${encodeURIComponent(id)}`;
}

/** Moves to a workspace URL without reloading (the shell listens for `popstate`). */
export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
