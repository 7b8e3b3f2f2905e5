import express, { type Router } from 'express';
import { isFormloomError, type Formloom } from '@formloom/core';

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Serves published forms as pages at `/f/:slug` (the shareable link); drafts are never shown. */
export function createPublicPagesRouter(options: { formloom: Formloom }): Router {
  const router = express.Router();
  router.get('/f/:slug', async (req, res) => {
    try {
      const form = await options.formloom.publishing.publicForm(String(req.params.slug));
      const theme = form.theme as Record<string, unknown>;
      const questions = (form.snapshot.questions ?? []) as Array<{ id: string; title: string; description: string | null; required: boolean }>;
      const items = questions
        .map((q) => `<li id="${escape(q.id)}"><h2>${escape(q.title)}${q.required ? ' *' : ''}</h2>${q.description ? `<p>${escape(q.description)}</p>` : ''}</li>`)
        .join('');
      res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(form.title)}</title>
<style>body{font-family:${escape(theme.font_family ?? 'system-ui')};background:${escape(theme.background_color)};color:${escape(theme.text_color ?? '#f5f5f5')};max-width:40rem;margin:3rem auto;padding:0 1rem}h1{color:${escape(theme.title_color ?? theme.theme_color)}}</style>
</head><body><h1>${escape(form.title)}</h1>${form.description ? `<p>${escape(form.description)}</p>` : ''}<ol>${items}</ol></body></html>`);
    } catch (e) {
      if (isFormloomError(e) && e.status === 404) {
        res.status(404).type('html').send('<!doctype html><title>Not found</title><h1>This form is not available</h1>');
        return;
      }
      throw e;
    }
  });
  return router;
}
