import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import compression from 'compression';
import { ASSET_PREFIX, fontFaceCss, libraryFontOf, needsOnDemand, pickLanguage, preloadFile, readableOn, RTL_LANGUAGES, themeLibraryFonts } from '@formloom/renderer';
import { isFormloomError, STYLE_PATTERNS, translatedText, type Formloom } from '@formloom/core';
import { abandon, fromRequestError, type ErrorLogger } from './errors';
import { errorLoggerOf, isHttpLogger, requestLogging, type RouterLogger } from './request-log';
import { assertNoNulCharacters } from './input-guard';
import { clientIp, RateLimits, type RateLimitOptions } from './rate-limit';
import { checkEmbedOrigins, imageOrigins, setPageHeaders, STRIPE_PAGE_SOURCES, type EmbedOrigins } from './security-headers';
import { isAssetPath, rendererAssetsRouter } from './renderer-assets';
import { noIndex } from './security-headers';
import { signingPage } from './signing-page';
import { invitationRoute, type InvitationPageOption } from './invitation-page';
import { bookingPageRoutes } from './booking-page';

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside a `<script type="application/json">` block: nothing in it can end the block. */
const inlineJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const page = (res: Response, status: number, title: string, text: string) =>
  res.status(status).type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${text}</h1></body></html>`);

/**
 * A theme value as CSS: only when it matches its field's pattern (docs/decisions.md "Theme"), else the
 * fallback. HTML escaping means nothing inside `<style>`; the pattern is what keeps the value in its
 * declaration (values stored before the patterns existed are dropped, not trusted).
 */
function cssValue(v: unknown, pattern: RegExp, fallback: string): string {
  return typeof v === 'string' && pattern.test(v) ? v : fallback;
}

/** The words of the page itself where no script runs, in English: the renderer's keys (i18n/en.ts). */
const NO_SCRIPT_WORDS: Record<string, string> = { needs_javascript: 'This form needs JavaScript.', closed: 'This form is closed', closed_text: 'It no longer accepts responses.' };

/** `text` ended as a sentence in `lang` (the renderer's titles have no full stop). */
const sentence = (text: string, lang: string) => (/[.!?。！？]$/.test(text) ? text : `${text}${lang === 'ja' || lang === 'zh' ? '。' : '.'}`);

/** The paths the pages router serves (docs/embedding.md lists them): its headers and errors stay on these. */
const PAGE_PATH = /^\/(?:f|s|teams\/invite)\/[^/]+\/?$/;
const isPagePath = (path: string) => PAGE_PATH.test(path) || isAssetPath(path);

const notFoundText = (path: string) =>
  path.startsWith('/s/') ? 'This signing link is not valid' : path.startsWith('/teams/invite/') ? 'This invitation link is not valid' : 'This form is not available';

/**
 * The pages' own error handler, so that no error ever reaches the host's final handler (whose page can
 * show a stack trace): a bad request is a plain 400 page, an unknown or unpublished form a 404 page, too
 * many requests a 429 page with `Retry-After`, anything else a logged plain 500 page.
 */
function pageErrorHandler(logger: (req: Request) => ErrorLogger): ErrorRequestHandler {
  return (err, req, res, next) => {
    // Mounted at a host's root, errors of the host's own routes and middleware are the host's to answer.
    if (!isPagePath(req.path)) return next(err);
    try {
      const e = fromRequestError(err);
      if (!e || e.status >= 500) logger(req).error('Unexpected error', err);
      if (res.headersSent) return abandon(res);
      if (e?.status === 404) return page(res, 404, 'Not found', notFoundText(req.path));
      if (e && isFormloomError(e) && e.code === 'RATE_LIMITED') {
        res.setHeader('Retry-After', String(e.details.retry_after));
        return page(res, 429, 'Too many requests', 'Too many requests: try again in a minute');
      }
      if (e) return page(res, e.status, 'Bad request', 'This link is not valid');
      page(res, 500, 'Error', 'Something went wrong; try again later');
    } catch {
      abandon(res);
    }
  };
}

export interface PublicPagesOptions {
  formloom: Formloom;
  /** Origins allowed to frame the `/f/` pages (CSP `frame-ancestors`): `*` (default) or e.g. `['https://example.com']`. The signer's and invitation pages are never framed. */
  embedOrigins?: EmbedOrigins;
  /** The pages count against `publicReads` per client IP (docs/security.md); `false` turns it off. */
  rateLimits?: RateLimitOptions | false;
  /** Where unexpected errors are reported (default: console); a pino-like logger also gets one line per request. */
  logger?: RouterLogger;
  /** Where the API router is mounted, for the page's element (default: the instance's `config.apiPath`, `/api/v1`). */
  apiPath?: string;
  /**
   * The invitation link `/teams/invite/<token>` of invitation emails: Formloom's page (default), your own
   * accept page (`{ acceptUrl: (token) => '/account/invitations/' + encodeURIComponent(token) }`, a 303
   * redirect), links to sign-in and sign-up pages that accept it (`{ signInUrl, signUpUrl }` with `{token}`,
   * the self-hosted app's workspace), or `false`: not served, for a host that accepts invitations its own way (docs/teams.md).
   */
  invitations?: InvitationPageOption;
}

/**
 * Serves published forms as pages at `/f/:slug` (the shareable link; drafts are never shown), the signer's
 * page at `/s/:code` (docs/signing.md), the team invitation page at `/teams/invite/:token` (docs/teams.md), and the respondent's element for them and for host pages:
 * `/embed.js` and `/formloom/assets/...` (docs/respondents.md).
 */
export function createPublicPagesRouter(options: PublicPagesOptions): Router {
  const embed = checkEmbedOrigins(options.embedOrigins ?? '*');
  const limits = new RateLimits(options.formloom, options.rateLimits);
  const apiPath = (options.apiPath ?? options.formloom.config.apiPath).replace(/\/+$/, '');
  const router = express.Router();
  const logging = requestLogging(isHttpLogger(options.logger) ? options.logger : undefined);
  const assets = rendererAssetsRouter(embed);
  // Each language's words, parsed once: the page's own sentences (no JavaScript, closed) speak the form's language.
  const parsed = new Map<string, Record<string, unknown>>();
  const wordsOf = (lang: string) => {
    let w = parsed.get(lang);
    if (!w) parsed.set(lang, (w = JSON.parse(assets.words(lang) ?? '{}') as Record<string, unknown>));
    return w;
  };
  router.use(assets.router);
  // Pages are compressed as they are sent (the assets above once, at start); only these paths: mounted at a
  // host's root, nothing of the host's own is touched (docs/embedding.md).
  const compress = compression();
  router.get('/f/:slug', compress, logging, async (req, res) => {
    setPageHeaders(res, embed);
    await limits.enforce('publicReads', clientIp(req), res);
    // PostgreSQL cannot even compare a text with a NUL in it: a 400 page, as under /api/v1.
    assertNoNulCharacters({ params: req.params });
    const form = await options.formloom.publishing.publicForm(String(req.params.slug));
    const theme = form.theme as Record<string, unknown>;
    const snapshot = form.snapshot as Record<string, unknown>;
    const logos = [theme.logo_url, theme.branding_logo_url, theme.top_logo_url, snapshot.branding_logo_url, snapshot.top_logo_url];
    const questions = (form.snapshot.questions ?? []) as Array<{ id: string; type?: string; title: string; description: string | null; required: boolean }>;
    // Stripe.js is allowed only on pages that take a payment (docs/payments.md).
    const nonce = setPageHeaders(res, embed, imageOrigins(logos), questions.some((q) => q.type === 'payment') ? STRIPE_PAGE_SOURCES : undefined);
    // A form offered in several languages (docs/languages.md): ?lang=, then the visitor's, among those it offers.
    const offered = [snapshot.language, ...(Array.isArray(snapshot.languages) ? snapshot.languages : [])].filter((l): l is string => typeof l === 'string');
    const asked = typeof req.query.lang === 'string' && offered.includes(req.query.lang) ? req.query.lang : null;
    const visitor = offered.length > 1 ? req.acceptsLanguages(...offered) : false;
    // The owner's texts in that language where translated (the element shows the same).
    const ownText = (path: string, text: string) => translatedText(snapshot, asked ?? (visitor || null), path, text);
    const shownTitle = ownText('title', form.title);
    const intro = form.description ? ownText('description', form.description) : null;
    // Shown only where the element does not run (no JavaScript): its shadow root hides these children.
    const items = questions
      .map((q) => `<li id="${escape(q.id)}"><h2>${escape(ownText(`questions.${q.id}.title`, q.title))}${q.required ? ' *' : ''}</h2>${q.description ? `<p>${escape(ownText(`questions.${q.id}.description`, q.description))}</p>` : ''}</li>`)
      .join('');
    const base = req.baseUrl;
    const bg = cssValue(theme.background_color, STYLE_PATTERNS.color, '#0a0a0a');
    // The colours the element will use, from the first byte: no dark flash on a light form, readable text without JavaScript.
    const text = cssValue(theme.text_color, STYLE_PATTERNS.color, readableOn(bg.slice(0, 7)));
    const title = cssValue(theme.title_color, STYLE_PATTERNS.color, text);
    const description = String(form.description || form.title).slice(0, 300);
    // The form's JSON travels in the page: the first question needs no second request (docs/respondents.md "Speed").
    // The page speaks the form's language, else the visitor's (as the element will): no flash of another language.
    const lang = pickLanguage(asked ?? (visitor || snapshot.language), req.acceptsLanguages());
    const dir = RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr';
    const words = assets.words(lang);
    // The owner's `strings` first, as in the element, then the language's words, then English.
    const own = (snapshot.strings && typeof snapshot.strings === 'object' ? snapshot.strings : {}) as Record<string, unknown>;
    const say = (key: string) => {
      const v = typeof own[key] === 'string' ? own[key] : wordsOf(lang)[key];
      return escape(typeof v === 'string' ? v : NO_SCRIPT_WORDS[key]);
    };
    // Library fonts (docs/respondents.md "Fonts"): faces declared for the families the theme names (a file is
    // fetched only when text uses it), and only the first screen's file preloaded: nothing blocks rendering.
    const assetBase = `${base}${ASSET_PREFIX}`;
    const faces = themeLibraryFonts(theme).map((f) => fontFaceCss(f, assetBase)).join('');
    const main = libraryFontOf(theme.font_family);
    const font = main ? `<link rel="preload" href="${escape(`${assetBase}/${preloadFile(main).name}`)}" as="font" type="font/woff2" crossorigin>` : '';
    // A payment or booking question's code is a module of its own (docs/respondents.md "Speed"): fetched with
    // the script, not after it, by the forms that have one.
    const preload = `${font}${needsOnDemand(questions) ? `<link rel="modulepreload" href="${escape(base + assets.paths.onDemand)}">` : ''}`;
    res.type('html').send(`<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(shownTitle)}</title>
<meta name="description" content="${escape(description)}"><link rel="icon" href="${escape(base + assets.paths.favicon)}" type="image/svg+xml">
${preload}<style nonce="${nonce}">${faces}html,body{margin:0;background:${bg};color:${text}}body{font-family:${cssValue(theme.font_family, STYLE_PATTERNS.font, 'system-ui, sans-serif')};line-height:1.5}.fl-page{max-width:40rem;margin:0 auto;padding:2rem 1.25rem}h1{color:${title};font-size:1.5rem;margin:0 0 1rem}h2{font-size:1.1rem}</style>
<script defer src="${escape(base + assets.paths.form)}"></script>
</head><body><main><formloom-form standalone slug="${escape(form.slug)}" api-url="${escape(base + apiPath)}"><div class="fl-page"><h1>${escape(shownTitle)}</h1>${intro ? `<p>${escape(intro)}</p>` : ''}${snapshot.closed ? `<p>${sentence(say('closed'), lang)} ${say('closed_text')}</p>` : `<ol>${items}</ol><p>${say('needs_javascript')}</p>`}</div><script type="application/json" data-formloom-form>${inlineJson(form)}</script>${words ? `<script type="application/json" data-formloom-strings="${lang}">${words.replace(/</g, '\\u003c')}</script>` : ''}</formloom-form></main></body></html>`);
  });
  // Their addresses carry credentials: no search engine may keep them, whatever the outcome.
  router.get('/s/:code', noIndex, compress, logging, signingPage(options.formloom, limits, apiPath, assets.paths));
  if (options.invitations !== false) router.get('/teams/invite/:token', noIndex, compress, logging, invitationRoute(options.formloom, limits, apiPath, assets.paths, options.invitations));
  // The cancel and reschedule links of booking mails (docs/booking.md).
  router.use('/bookings', noIndex, compress, logging, bookingPageRoutes(options.formloom, limits));
  router.use(pageErrorHandler(errorLoggerOf(options.logger)));
  return router;
}
