import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { request } from '../../data/auth';
import { errorLine, messageOf } from '../auth/auth-card';
import { navigate } from '../shell/routes';
import { sectionStyles } from './account-styles';

/** `GET /account/deletion` (docs/accounts.md, "Deleting an account"). */
export interface DeletionPlan {
  forms: number;
  responses: number;
  signed_contracts: number;
  teams_deleted: Array<{ id: string; name: string }>;
  teams_left: Array<{ id: string; name: string }>;
  blockers: Array<{ reason: string; message: string }>;
}

const plural = (n: number, one: string, many: string) => `${n === 1 ? 'one' : n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * `<fl-account-delete>`: the last card of the account page. It opens on request, lists in plain words what goes
 * and what stays, says what must be done first, and deletes after the person types their password.
 */
export class FlAccountDelete extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      section.card { border-color: color-mix(in srgb, var(--_danger) 40%, var(--_border)); }
      ul.list { margin: 0; padding-left: 1.25rem; display: grid; gap: 0.3rem; }
    `,
  ];
  static override properties = { api: { attribute: false }, base: {}, plan: { state: true }, open: { state: true }, error: { state: true }, busy: { state: true } };
  api!: Api;
  base = '';
  plan: DeletionPlan | null = null;
  open = false;
  error: string | null = null;
  busy = false;

  private async start() {
    this.open = true;
    this.error = null;
    try {
      this.plan = await request<DeletionPlan>(this.api, 'GET', '/account/deletion');
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private async onDelete(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const password = String(data.get('password') ?? '');
    this.busy = true;
    this.error = null;
    try {
      await request(this.api, 'DELETE', '/account', { ...(password ? { password } : {}), ...(data.get('signed') ? { delete_signed_contracts: true } : {}) });
    } catch (err) {
      this.error = err instanceof ApiError && err.reason === 'invalid_credentials' ? 'That is not your password.' : messageOf(err);
      this.busy = false;
      return;
    }
    this.dispatchEvent(new CustomEvent('fl-session', { detail: null, bubbles: true, composed: true }));
    navigate(`${this.base}/signin`, true);
  }

  private renderPlan(p: DeletionPlan) {
    return html`<p>Deleting your account deletes, for good:</p>
      <ul class="list">
        <li>${p.forms ? `Your ${plural(p.forms, 'form', 'forms')}, with ${plural(p.responses, 'response', 'responses')} and their uploaded files` : 'Your forms (you have none)'}</li>
        ${p.teams_deleted.map((t) => html`<li>The team “${t.name}”, which only you are in, with its forms</li>`)}
        <li>Your API keys, passkeys and every place you are signed in</li>
        <li>Your voice credits, generated audio and webhook settings</li>
      </ul>
      ${p.teams_left.length ? html`<p>You leave ${p.teams_left.map((t) => `“${t.name}”`).join(', ')}. The forms you made there stay with the team.</p>` : nothing}
      ${p.blockers.length
        ? html`<div class="notice" role="alert"><p><strong>First:</strong></p><ul class="list">${p.blockers.map((b) => html`<li>${b.message}.</li>`)}</ul></div>`
        : html`<form @submit=${this.onDelete}>
            ${p.signed_contracts
              ? html`<label class="check"><input type="checkbox" name="signed" required /> Also delete ${plural(p.signed_contracts, 'signed contract', 'signed contracts')}: they may be evidence you must keep.</label>`
              : nothing}
            <label class="field">Your password
              <input name="password" type="password" autocomplete="current-password" aria-describedby="pw-hint" />
            </label>
            <p class="meta" id="pw-hint">If you sign in without a password, sign out and in again, then delete within 10 minutes.</p>
            ${errorLine(this.error)}
            <div class="row"><button class="btn danger solid" type="submit" ?disabled=${this.busy}>${this.busy ? 'Deleting…' : 'Delete my account'}</button>
              <button class="btn" type="button" @click=${() => ((this.open = false), (this.plan = null))}>Keep my account</button></div>
          </form>`}`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete your account</h2>
      ${!this.open
        ? html`<p>Remove your account and everything in it from this server.</p>
            <div class="row"><button class="btn danger" type="button" @click=${() => void this.start()}>Delete my account…</button></div>`
        : this.plan
          ? this.renderPlan(this.plan)
          : this.error
            ? errorLine(this.error)
            : html`<p class="muted" role="status">Loading…</p>`}
    </section>`;
  }
}
customElements.get('fl-account-delete') || customElements.define('fl-account-delete', FlAccountDelete);
