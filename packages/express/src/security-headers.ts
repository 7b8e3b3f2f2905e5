import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

/*
 * Response headers that keep browsers and caches from misusing our answers (docs/security.md, "Security
 * headers").
 */

/**
 * Every API answer: `nosniff`, and `Cache-Control: no-store` on everything but public reads, since an
 * answer may carry an API key, an invitation token, a webhook secret, a resume token or another account's
 * data, and a shared cache or a browser's history must keep none of them.
 */
export const apiSecurityHeaders: RequestHandler = (req, res, next) => {
  setApiSecurityHeaders(req, res);
  next();
};

/** What `apiSecurityHeaders` sets, for a middleware that does more in the same step. */
export function setApiSecurityHeaders(req: Request, res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const cacheable = (req.method === 'GET' || req.method === 'HEAD') && (req.path.startsWith('/public/') || req.path === '/openapi.json');
  if (!cacheable) res.setHeader('Cache-Control', 'no-store');
}

/** Who may frame the pages: `*` (anyone, the default) or a list of origins such as `https://example.com`. */
export type EmbedOrigins = '*' | readonly string[];

/**
 * The framing policy of pages that must never be framed: the signer's page and the invitation page, whose
 * buttons sign or join (a framed button can be clicked through a decoy page). Embedding is for `/f/` only.
 */
export const NO_FRAMING = 'none';

// A CSP source for frame-ancestors: `'self'`, `https:`/`http:`, or http(s)://host[:port] with an optional
// leading `*.` label. Nothing that could end the directive (`;`, `,`, spaces) gets through.
const ORIGIN = /^(?:'self'|https?:|https?:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?)$/i;

/** Reads `FORMLOOM_EMBED_ORIGINS`-style text: `*`, or origins separated by commas or spaces. */
export function parseEmbedOrigins(text: string | undefined): EmbedOrigins {
  const items = (text ?? '').split(/[\s,]+/).filter(Boolean);
  if (items.length === 0 || (items.length === 1 && items[0] === '*')) return '*';
  return checkEmbedOrigins(items.map((o) => o.replace(/\/+$/, '')));
}

/** Throws on a value that is not a valid frame-ancestors source list. */
export function checkEmbedOrigins(origins: EmbedOrigins): EmbedOrigins {
  if (origins === '*') return origins;
  if (origins.length === 0) throw new Error('embed origins: expected "*" or at least one origin');
  for (const o of origins) {
    if (!ORIGIN.test(o)) throw new Error(`embed origins: ${JSON.stringify(o)} is not an origin like https://example.com`);
  }
  return origins;
}

const frameAncestors = (origins: EmbedOrigins | typeof NO_FRAMING) =>
  `frame-ancestors ${origins === '*' ? '*' : origins === NO_FRAMING ? "'none'" : origins.join(' ')}`;

/** The http(s) origins of image URLs (a form's logos), for `img-src`. */
export function imageOrigins(urls: unknown[]): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    if (typeof u !== 'string' || !u) continue;
    try {
      const url = new URL(u);
      if (url.protocol === 'https:' || url.protocol === 'http:') out.add(url.origin);
    } catch {
      // Not a URL: the page shows no image for it, so it needs no source.
    }
  }
  return [...out];
}

/**
 * Headers of a public page: nothing but our own scripts, styles and images (plus `images` origins), its one
 * inline style block allowed by the returned nonce, and framing limited to `embed` (`NO_FRAMING`: none at
 * all, also said by `X-Frame-Options: DENY` for browsers that predate `frame-ancestors`).
 */
/**
 * What a page with a payment question adds for Stripe.js and its Payment Element, exactly as Stripe documents it
 * (docs/payments.md): its script, its frames, and the API its script calls from the page. Only such pages have it.
 */
export const STRIPE_PAGE_SOURCES = { script: ['https://js.stripe.com'], frame: ['https://js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] };
export type PageSources = typeof STRIPE_PAGE_SOURCES;

export function setPageHeaders(res: Response, embed: EmbedOrigins | typeof NO_FRAMING, images: string[] = [], extra?: PageSources): string {
  const nonce = randomBytes(16).toString('base64');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (embed === NO_FRAMING) res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      ["script-src 'self'", ...(extra?.script ?? [])].join(' '),
      `style-src 'self' 'nonce-${nonce}'`,
      // blob: the preview of an image the respondent is uploading, made from the file in their own browser.
      `img-src ${["'self'", 'blob:', ...images].join(' ')}`,
      "font-src 'self'",
      ["connect-src 'self'", ...(extra?.connect ?? [])].join(' '),
      ...(extra ? [`frame-src ${extra.frame.join(' ')}`] : []),
      "form-action 'self'",
      "base-uri 'none'",
      frameAncestors(embed),
    ].join('; '),
  );
  return nonce;
}

/**
 * Pages whose address is a credential (a signer's short code, an invitation token): search engines must not
 * index or follow them, even if a link leaks (docs/security.md "Security headers").
 */
export const noIndex: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  next();
};
