import type { Request, Response } from 'express';
import { SignerService, STYLE_PATTERNS, type Formloom } from '@formloom/core';
import { assertNoNulCharacters } from './input-guard';
import { clientIp, type RateLimits } from './rate-limit';
import { NO_FRAMING, setPageHeaders } from './security-headers';
import type { AssetPaths } from './renderer-assets';

/*
 * The signer's page, `/s/<short_code>` (docs/signing.md "The signer's page"): a plain HTML shell naming the
 * link, the API and the form's theme; the renderer's signing module (built by our `tsc -b`, served from
 * `/formloom/assets/`) reads the contract and signs through the public `/api/v1/s/...` endpoints.
 */

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Only the theme's fields the page uses, each only when it matches its pattern (as on `/f/` pages). */
function pageTheme(theme: Record<string, unknown>) {
  const pick: Array<[string, RegExp]> = [
    ['theme_color', STYLE_PATTERNS.color], ['background_color', STYLE_PATTERNS.color], ['text_color', STYLE_PATTERNS.color],
    ['answer_text_color', STYLE_PATTERNS.color], ['button_color', STYLE_PATTERNS.color], ['button_text_color', STYLE_PATTERNS.color],
    ['title_color', STYLE_PATTERNS.color], ['font_family', STYLE_PATTERNS.font], ['font_family_button', STYLE_PATTERNS.font],
  ];
  return Object.fromEntries(pick.filter(([k, p]) => typeof theme[k] === 'string' && p.test(theme[k] as string)).map(([k]) => [k, theme[k]]));
}

/** Never framed (`NO_FRAMING`, whatever the pages' `embedOrigins`): a framed signing button could be clicked through a decoy. */
export function signingPage(formloom: Formloom, limits: RateLimits, apiPath: string, assets: AssetPaths) {
  return async (req: Request, res: Response) => {
    setPageHeaders(res, NO_FRAMING);
    await limits.enforce('publicReads', clientIp(req), res);
    assertNoNulCharacters({ params: req.params });
    const code = String(req.params.code);
    const { form_title, theme } = await formloom.service(SignerService).page(code);
    const nonce = setPageHeaders(res, NO_FRAMING);
    // The short code in the address is the signer's credential: no Referer carries it off, no cache keeps the page.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    const t = pageTheme(theme);
    const base = req.baseUrl;
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign: ${escape(form_title)}</title>
<meta name="robots" content="noindex, nofollow"><link rel="icon" href="${escape(base + assets.favicon)}" type="image/svg+xml">
<link rel="stylesheet" href="${escape(base + assets.signingCss)}">
<style nonce="${nonce}">html,body{background:${t.background_color ?? '#0a0a0a'}}</style>
<script defer src="${escape(base + assets.signing)}"></script>
</head><body><main id="formloom-signing" aria-busy="true" data-code="${escape(code)}" data-api="${escape(base + apiPath)}" data-theme="${escape(JSON.stringify(t))}"><h1>${escape(form_title)}</h1><p>Loading the contract…</p><noscript><p>Signing needs JavaScript: turn it on and reload this page.</p></noscript></main></body></html>`);
  };
}
