import type { Request, Response } from 'express';
import type { Formloom, PublicInvitation } from '@formloom/core';
import { assertNoNulCharacters } from './input-guard';
import { clientIp, type RateLimits } from './rate-limit';
import { NO_FRAMING, setPageHeaders } from './security-headers';
import type { AssetPaths } from './renderer-assets';

/*
 * The team invitation page, `/teams/invite/<token>` (docs/teams.md "Accepting in the browser"): the link of
 * the invitation email. It shows the team, the role, who invited and the expiry, and a form where the
 * invitee pastes their API key; the renderer's small invitation module calls the public
 * `POST <api>/invitations/<token>/accept` with it. An unknown token is a 404 page (the pages' error handler),
 * an expired, cancelled or accepted one a 410 page.
 */

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE =
  'html,body{background:#fafafa;color:#18181b}body{font-family:system-ui,sans-serif;max-width:36rem;margin:0 auto;padding:2rem 1rem;line-height:1.5}' +
  'h1{font-size:1.4rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}' +
  'label{display:block;font-weight:600;margin:1rem 0 .25rem}input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #52525b;border-radius:4px}' +
  'button{margin-top:.75rem;font:inherit;padding:.5rem 1.25rem;border:0;border-radius:4px;background:#4338ca;color:#fff;cursor:pointer}button:disabled{opacity:.6}' +
  ':focus-visible{outline:3px solid #f59e0b;outline-offset:2px}code{background:#e4e4e7;padding:0 .25rem;border-radius:3px;overflow-wrap:anywhere}' +
  '.error{color:#b91c1c;font-weight:600}.success{color:#166534;font-weight:600}' +
  '.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem}a.button{display:inline-block;padding:.6rem 1.25rem;border-radius:4px;background:#4338ca;color:#fff;text-decoration:none;font-weight:600}' +
  'a.button.secondary{background:#fff;color:#4338ca;border:1px solid #4338ca}';

const WHY: Record<string, string> = {
  expired: 'This invitation has expired. Ask a team admin to invite you again.',
  accepted: 'This invitation has already been accepted.',
  cancelled: 'This invitation was cancelled. Ask a team admin to invite you again.',
};

function shell(res: Response, nonce: string, title: string, body: string, script = '') {
  res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title><meta name="robots" content="noindex, nofollow">
<style nonce="${nonce}">${STYLE}</style>${script}
</head><body><main>${body}</main></body></html>`);
}

/**
 * Where invitees accept instead of pasting an API key (docs/embedding.md, "The invitation page"): the
 * workspace's sign-in and sign-up screens in the self-hosted app, or a host's own pages. `{token}` in each
 * URL is replaced by the invitation's token; the page accepted there signs the invitee in and joins the team.
 */
export interface InvitationAcceptPages {
  /** e.g. `/signin?invite={token}`. */
  signInUrl: string;
  /** e.g. `/signup?invite={token}`; absent when the host makes accounts some other way. */
  signUpUrl?: string;
}

/** The `?email=` of the mailed link when it looks like an address: the sign-in and sign-up pages prefill it. */
function invitedAddress(req: Request): string | undefined {
  const e = typeof req.query.email === 'string' ? req.query.email.trim() : '';
  return e.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(e) ? e : undefined;
}

function acceptLinks(pages: InvitationAcceptPages, token: string, email?: string): string {
  const url = (template: string) => {
    const u = template.split('{token}').join(encodeURIComponent(token));
    return escape(email ? `${u}${u.includes('?') ? '&' : '?'}email=${encodeURIComponent(email)}` : u);
  };
  return (
    '<h2>How to accept</h2><p>Sign in with the address this invitation was sent to, or create your account with it: you join the team as soon as you are in.</p>' +
    `<p class="actions"><a class="button" href="${url(pages.signInUrl)}">Sign in to accept</a>` +
    (pages.signUpUrl ? `<a class="button secondary" href="${url(pages.signUpUrl)}">Create an account</a>` : '') +
    '</p>'
  );
}

/** Never framed (`NO_FRAMING`, whatever the pages' `embedOrigins`): its accept button must not be clickable through a decoy. */
export function invitationPage(formloom: Formloom, limits: RateLimits, apiPath: string, assets: AssetPaths, accept?: InvitationAcceptPages) {
  return async (req: Request, res: Response) => {
    setPageHeaders(res, NO_FRAMING);
    await limits.enforce('publicReads', clientIp(req), res);
    assertNoNulCharacters({ params: req.params });
    const token = String(req.params.token);
    // The token in the address is the invitee's credential: no Referer carries it off, no cache keeps the page.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    const inv: PublicInvitation = await formloom.invitations.publicView(token);
    const nonce = setPageHeaders(res, NO_FRAMING);
    if (inv.status !== 'pending') {
      res.status(410);
      return shell(res, nonce, 'Invitation no longer valid', `<h1>This invitation is no longer valid</h1><p>${escape(WHY[inv.status] ?? WHY.expired)}</p>`);
    }
    const base = req.baseUrl;
    const details =
      `<dl><dt>Team</dt><dd>${escape(inv.team_name)}</dd><dt>Role</dt><dd>${escape(inv.role)}</dd>` +
      (inv.invited_by_name ? `<dt>Invited by</dt><dd>${escape(inv.invited_by_name)}</dd>` : '') +
      `<dt>Expires</dt><dd><time datetime="${escape(inv.expires_at)}">${escape(inv.expires_at.slice(0, 16).replace('T', ' '))} UTC</time></dd></dl>`;
    if (accept) return shell(res, nonce, `Invitation to ${inv.team_name}`, `<h1>Join the team ${escape(inv.team_name)} on Formloom</h1>${details}${acceptLinks(accept, token, invitedAddress(req))}`);
    const body =
      `<div id="formloom-invitation" data-token="${escape(token)}" data-api="${escape(base + apiPath)}">` +
      `<h1>Join the team ${escape(inv.team_name)} on Formloom</h1>${details}` +
      '<h2>How to accept</h2><p>Sign in with your Formloom API key: the account it belongs to must have the email address this invitation was sent to. ' +
      'If you have no key yet, ask your Formloom administrator to run <code>formloom key create --user &lt;your email&gt;</code>. ' +
      'The key is sent only to this server, with the accept request, and is not stored by this page.</p>' +
      '<form novalidate><label for="invitation-api-key">Your API key</label>' +
      '<input id="invitation-api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" required aria-describedby="invitation-outcome">' +
      '<button type="submit">Accept invitation</button></form>' +
      '<p id="invitation-outcome" data-outcome role="status" aria-live="polite" tabindex="-1"></p>' +
      '<noscript><p>Accepting here needs JavaScript; you can also call <code>POST /api/v1/invitations/&lt;token&gt;/accept</code> with your API key.</p></noscript></div>';
    shell(res, nonce, `Invitation to ${inv.team_name}`, body, `\n<script defer src="${escape(base + assets.invitation)}"></script>`);
  };
}

/** `createPublicPagesRouter({ invitations })`: Formloom's page, the host's accept page, or off. */
export type InvitationPageOption = false | { acceptUrl: (token: string) => string } | InvitationAcceptPages | undefined;

/** The route of `/teams/invite/:token`: the page, or a redirect to the host's own accept page. */
export function invitationRoute(formloom: Formloom, limits: RateLimits, apiPath: string, assets: AssetPaths, option: InvitationPageOption) {
  if (!option || !('acceptUrl' in option)) return invitationPage(formloom, limits, apiPath, assets, option || undefined);
  return async (req: Request, res: Response) => {
    await limits.enforce('publicReads', clientIp(req), res);
    assertNoNulCharacters({ params: req.params });
    // The token is the invitee's credential: never in a Referer or a cache, on the way to the host's page too.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, option.acceptUrl(String(req.params.token)));
  };
}
