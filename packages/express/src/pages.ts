import express, { type Router } from 'express';
import { cssStaysInStyle, isFormloomError, STYLE_PATTERNS, type Formloom } from '@formloom/core';

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A theme value as CSS: only when it matches its field's pattern (docs/decisions.md "Theme"), else the
 * fallback. HTML escaping means nothing inside `<style>`; the pattern is what keeps the value in its
 * declaration (values stored before the patterns existed are dropped, not trusted).
 */
function cssValue(v: unknown, pattern: RegExp, fallback: string): string {
  return typeof v === 'string' && pattern.test(v) ? v : fallback;
}

/** Serves published forms as pages at `/f/:slug` (the shareable link); drafts are never shown. */
export function createPublicPagesRouter(options: { formloom: Formloom }): Router {
  const router = express.Router();
  router.get('/f/:slug', async (req, res) => {
    try {
      const form = await options.formloom.publishing.publicForm(String(req.params.slug));
      const theme = form.theme as Record<string, unknown>;
      const questions = (form.snapshot.questions ?? []) as Array<{ id: string; title: string; description: string | null; required: boolean }>;
      const css = theme.custom_css;
      const customCss = typeof css === 'string' && css && cssStaysInStyle(css) ? `<style>${css}</style>` : '';
      const items = questions
        .map((q) => `<li id="${escape(q.id)}"><h2>${escape(q.title)}${q.required ? ' *' : ''}</h2>${q.description ? `<p>${escape(q.description)}</p>` : ''}</li>`)
        .join('');
      res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(form.title)}</title>
<style>body{font-family:${cssValue(theme.font_family, STYLE_PATTERNS.font, 'system-ui')};background:${cssValue(theme.background_color, STYLE_PATTERNS.color, '#0a0a0a')};color:${cssValue(theme.text_color, STYLE_PATTERNS.color, '#f5f5f5')};max-width:40rem;margin:3rem auto;padding:0 1rem}h1{color:${cssValue(theme.title_color ?? theme.theme_color, STYLE_PATTERNS.color, '#6366f1')}}</style>${customCss}
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
