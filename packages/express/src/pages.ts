import express, { type ErrorRequestHandler, type Response, type Router } from 'express';
import { type Formloom } from '@formloom/core';
import { abandon, fromRequestError, type ErrorLogger } from './errors';
import { assertNoNulCharacters } from './input-guard';

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (res: Response, status: number, title: string, text: string) =>
  res.status(status).type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${text}</h1></body></html>`);

/**
 * The pages' own error handler, so that no error ever reaches the host's final handler (whose page can
 * show a stack trace): a bad request is a plain 400 page, an unknown or unpublished form a 404 page,
 * anything else a logged plain 500 page.
 */
function pageErrorHandler(logger: ErrorLogger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    try {
      const e = fromRequestError(err);
      if (!e || e.status >= 500) logger.error('Unexpected error', err);
      if (res.headersSent) return abandon(res);
      if (e?.status === 404) return page(res, 404, 'Not found', 'This form is not available');
      if (e) return page(res, e.status, 'Bad request', 'This link is not valid');
      page(res, 500, 'Error', 'Something went wrong; try again later');
    } catch {
      abandon(res);
    }
  };
}

/** Serves published forms as pages at `/f/:slug` (the shareable link); drafts are never shown. */
export function createPublicPagesRouter(options: { formloom: Formloom; logger?: ErrorLogger }): Router {
  const router = express.Router();
  router.get('/f/:slug', async (req, res) => {
    // PostgreSQL cannot even compare a text with a NUL in it: a 400 page, as under /api/v1.
    assertNoNulCharacters({ params: req.params });
    const form = await options.formloom.publishing.publicForm(String(req.params.slug));
    const theme = form.theme as Record<string, unknown>;
    const questions = (form.snapshot.questions ?? []) as Array<{ id: string; title: string; description: string | null; required: boolean }>;
    const items = questions
      .map((q) => `<li id="${escape(q.id)}"><h2>${escape(q.title)}${q.required ? ' *' : ''}</h2>${q.description ? `<p>${escape(q.description)}</p>` : ''}</li>`)
      .join('');
    res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(form.title)}</title>
<style>body{font-family:${escape(theme.font_family ?? 'system-ui')};background:${escape(theme.background_color)};color:${escape(theme.text_color ?? '#f5f5f5')};max-width:40rem;margin:3rem auto;padding:0 1rem}h1{color:${escape(theme.title_color ?? theme.theme_color)}}</style>
</head><body><h1>${escape(form.title)}</h1>${form.description ? `<p>${escape(form.description)}</p>` : ''}<ol>${items}</ol></body></html>`);
  });
  router.use(pageErrorHandler(options.logger ?? { error: (m, e) => console.error(m, e) }));
  return router;
}
