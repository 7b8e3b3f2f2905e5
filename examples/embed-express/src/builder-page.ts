import express, { type Router } from 'express';
import { createWorkspaceRouter } from '@formloom/workspace';
import { SESSION_COOKIE, type HostSessions } from './host-sessions';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The host's own pages around Formloom's builder (docs/workspace.md, "In your own page"): a demo sign-in that
 * sets the host's cookie, and `/builder/:formId`, a page of the host with one `<formloom-builder>` element.
 * The element calls `/api/v1` with that cookie, which the host's `authenticate` hook reads; when the API
 * answers 401 the element dispatches `formloom-unauthorized` and the page sends the person to the sign-in.
 */
export function builderPages(sessions: HostSessions, demoTokens: ReadonlyMap<string, { name: string }>): Router {
  const router = express.Router();
  // The builder's scripts only (`/workspace/builder.js` and the hashed files): the host has its own pages.
  router.use(createWorkspaceRouter({ apiBase: '/api/v1', pages: false }));
  router.get('/login', (req, res) => {
    const next = typeof req.query.next === 'string' && req.query.next.startsWith('/') ? req.query.next : '/';
    const buttons = [...demoTokens].map(([token, u]) => `<button name="token" value="${escape(token)}">Sign in as ${escape(u.name)}</button>`).join(' ');
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host sign-in</title></head>
<body><main><h1>Sign in to the host app</h1><form method="post" action="/login?next=${encodeURIComponent(next)}">${buttons}</form></main></body></html>`);
  });
  router.post('/login', express.urlencoded({ extended: false }), (req, res) => {
    const token = String((req.body as { token?: unknown }).token ?? '');
    if (!demoTokens.has(token)) return void res.status(401).type('text').send('Unknown user\n');
    res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/' });
    const next = typeof req.query.next === 'string' && req.query.next.startsWith('/') && !req.query.next.startsWith('//') ? req.query.next : '/';
    res.redirect(303, next);
  });
  router.get('/builder/:formId', (req, res) => {
    const user = sessions.userOf(req);
    if (!user) return void res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Edit form · Host app</title>
<script type="module" src="/workspace/builder.js"></script>
<script>
// The builder met a 401: this host's session ended. Its own sign-in, then back here.
document.addEventListener('formloom-unauthorized', () => location.assign('/login?next=' + encodeURIComponent(location.pathname)), { once: true });
</script>
<style>body{margin:0;font-family:system-ui,sans-serif}header{padding:0.75rem 1rem;background:#0f172a;color:#fff}formloom-builder{--fl-color-primary:#0f766e}</style></head>
<body><header><strong>Host app</strong> · signed in as ${escape(user.name)}</header>
<main><formloom-builder form-id="${escape(String(req.params.formId))}" api-base="/api/v1"></formloom-builder></main></body></html>`);
  });
  return router;
}
