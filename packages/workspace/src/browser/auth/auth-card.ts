import { LitElement, css, html, type TemplateResult } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { ApiError } from '../../data/client';
import type { SessionInfo } from '../../data/session';
import { acceptInvitation } from '../../data/auth';
import { navigate } from '../shell/routes';

/*
 * What the sign-in screens share (docs/workspace.md, "Signing in"): the centred card, the status line that
 * screen readers hear, and what happens once someone is signed in (the shell learns it through the
 * `fl-session` event; a pending team invitation is accepted; the browser moves on to `next` or the forms).
 */

export const cardStyles = css`
  :host { display: grid; place-items: start center; min-height: 70vh; padding: 2rem 1rem; }
  .card { width: 100%; max-width: 26rem; display: grid; gap: 1rem; padding: 1.5rem; }
  form { display: grid; gap: 0.85rem; }
  p { margin: 0; line-height: 1.5; }
  .alt { display: grid; gap: 0.5rem; }
  .divider { display: flex; align-items: center; gap: 0.75rem; color: var(--_muted); font-size: 0.875rem; }
  .divider::before, .divider::after { content: ''; flex: 1; border-top: 1px solid var(--_border); }
  .btn.block { width: 100%; justify-content: center; }
  .links { display: flex; justify-content: space-between; flex-wrap: wrap; gap: 0.5rem; font-size: 0.9375rem; }
  [role='alert'], [role='status'] { min-height: 1.25rem; }
  .notice { padding: 0.75rem; border-radius: var(--_radius); background: color-mix(in srgb, var(--_primary) 10%, transparent); }
  .error-text.on::before { content: '⚠ '; }
  .error-text:not(.on) { display: none; }
  .hint { font-size: 0.8125rem; font-weight: 400; color: var(--_muted); }
`;

/**
 * What every sign-in screen has: the API, where the workspace is mounted, the URL's query (`invite`, `next`),
 * and one call at a time whose failure becomes the error line.
 */
export class AuthScreen extends LitElement {
  static override styles = [tokens, controls, cardStyles];
  static override properties = {
    api: { attribute: false },
    base: {},
    query: { attribute: false },
    busy: { state: true },
    error: { state: true },
  };
  api!: Api;
  base = '';
  query?: URLSearchParams;
  busy = false;
  error: string | null = null;

  /** Runs `work` with the screen busy; its failure, in words a person can act on, is the error line. */
  protected async run(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await work();
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  /** The trimmed value of the screen's input named `name`. */
  protected field(name: string): string {
    return (this.renderRoot.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? '').trim();
  }
}

/** The error line under a form: an `alert`, so it is read out as soon as it appears. */
export function errorLine(message: string | null): TemplateResult {
  return html`<p class="error-text ${message ? 'on' : ''}" role="alert">${message ?? ''}</p>`;
}

/** The message a person can act on, for any failure of a sign-in call. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 429) return 'Too many attempts. Wait a minute, then try again.';
    if (e.reason === 'invalid_credentials') return 'That email and password do not match an account.';
    if (e.reason === 'invalid_token') return 'This link is no longer valid: it expired or was already used. Ask for a new one.';
    return e.message;
  }
  if (e instanceof Error && e.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  return e instanceof Error ? e.message : String(e);
}

/** A token carried in the URL's fragment (`#token=...`): it never reaches a server log or a Referer. */
export function fragmentToken(): string | null {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  return hash.get('token') || new URLSearchParams(location.search).get('token');
}

/** Only a path on this origin may follow a sign-in, never another site. */
export function safeNext(base: string, query: URLSearchParams | undefined): string {
  const next = query?.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : `${base}/`;
}

/**
 * After any successful sign-in or sign-up: tell the shell, accept the invitation the person came with, and
 * go on. An invitation that cannot be accepted (another address, expired) is reported on the forms list.
 */
export async function afterSignIn(el: HTMLElement, api: Api, base: string, info: SessionInfo, query: URLSearchParams | undefined): Promise<void> {
  el.dispatchEvent(new CustomEvent('fl-session', { detail: info, bubbles: true, composed: true }));
  const invite = query?.get('invite');
  let target = safeNext(base, query);
  if (invite) {
    try {
      const joined = await acceptInvitation(api, invite);
      target = `${base}/?joined=${encodeURIComponent(joined.team.name)}`;
    } catch (e) {
      target = `${base}/?invite_error=${encodeURIComponent(messageOf(e))}`;
    }
  }
  navigate(target, true);
}

/** Keeps `invite`, `email` (the invited address, prefilled) and `next` on links between the sign-in screens. */
export function carry(query: URLSearchParams | undefined): string {
  const keep = new URLSearchParams();
  for (const k of ['invite', 'email', 'next']) {
    const v = query?.get(k);
    if (v) keep.set(k, v);
  }
  const s = keep.toString();
  return s ? `?${s}` : '';
}
