import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { listTeams, type Question } from '../../data/forms';
import { listSessions, SESSION_STATUSES, statusLabel, type SessionListItem, type SessionStatus, type SigningSession } from '../../data/signing';
import { formPath, navigate, signingSessionPath } from '../shell/routes';
import { signingStyles } from './signing-styles';
import { when } from './signing-format';
import './new-session-dialog';
import './session-view';
import type { FlNewSession } from './new-session-dialog';

const PER_PAGE = 20;
const EDIT_ROLES = new Set(['owner', 'admin', 'editor']);

/**
 * `<fl-signing-panel>`: the builder's Signing tab (docs/workspace.md, "Signing"), shown for forms with contract
 * questions: the form's signing sessions by status, a page at a time, "New session", and one session's page
 * (`/forms/:id/signing/:sessionId`; alone in a host page the session opens in place). Team viewers read only.
 */
export class FlSigningPanel extends LitElement {
  static override styles = [tokens, controls, signingStyles];
  static override properties = {
    store: { attribute: false },
    base: { attribute: false },
    sessionId: { attribute: false },
    tick: { attribute: false },
    sessions: { state: true },
    total: { state: true },
    page: { state: true },
    status: { state: true },
    canEdit: { state: true },
    error: { state: true },
    blocked: { state: true },
    created: { state: true },
  };
  store: { api: Api; formId: string; draft: { team_id?: string | null; questions: Question[] } } | null = null;
  base: string | null = null;
  sessionId: string | null = null;
  tick = 0;
  sessions: SessionListItem[] | null = null;
  total = 0;
  page = 1;
  status: SessionStatus | '' = '';
  /** False for a team viewer, and until the role is known. */
  canEdit = false;
  error: { status: number; message: string } | null = null;
  /** The API's reason that no session can be made (the plan has no contracts). */
  blocked = '';
  /** The session just made here: its page opens with the links to send. */
  created: SigningSession | null = null;
  private started = false;

  override willUpdate(changed: Map<string, unknown>) {
    if (this.store && !this.started) {
      this.started = true;
      void this.start();
    }
    // Back from a session's page: the list may have changed there (voided, signed).
    if (changed.has('sessionId') && changed.get('sessionId') && !this.sessionId && this.started) void this.load();
  }

  private get api() {
    return this.store!.api;
  }

  private get contracts() {
    return this.store!.draft.questions.filter((q) => q.type === 'contract');
  }

  private async start() {
    const teamId = this.store!.draft.team_id ?? null;
    if (!teamId) this.canEdit = true;
    else {
      const role = (await listTeams(this.api).catch(() => null))?.teams.find((t) => t.id === teamId)?.your_role;
      this.canEdit = role !== undefined && EDIT_ROLES.has(role);
    }
    await this.load();
  }

  /** Shows a page of sessions; the page and filter change with the rows, so the two never disagree. */
  async load(page = this.page, status = this.status) {
    try {
      const r = await listSessions(this.api, this.store!.formId, { page, per_page: PER_PAGE, ...(status ? { status } : {}) });
      this.page = page;
      this.status = status;
      this.sessions = r.sessions;
      this.total = r.total;
      this.error = null;
    } catch (e) {
      this.error = { status: e instanceof ApiError ? e.status : 0, message: (e as Error).message };
    }
  }

  private open(id: string, e?: Event) {
    e?.preventDefault();
    if (this.base === null) this.sessionId = id;
    else navigate(signingSessionPath(this.base, this.store!.formId, id));
  }

  /** Alone in a host page (no URLs), "All sessions" comes back here. */
  private back() {
    this.created = null;
    this.sessionId = null;
    void this.load();
  }

  private onCreated(e: CustomEvent<SigningSession>) {
    this.created = e.detail;
    this.open(e.detail.id);
  }

  private onRefused(e: CustomEvent<ApiError>) {
    if (e.detail.status === 403) this.blocked = e.detail.message;
  }

  private renderError(err: { status: number; message: string }) {
    const text =
      err.status === 404
        ? 'This form does not exist any more. It may have been deleted in another tab or by someone else.'
        : err.status === 403
          ? 'You do not have access to the signing sessions of this form.'
          : err.message;
    return html`<div class="card stack" role="alert"><h2>Signing sessions are not available</h2><p>${text}</p>
      ${err.status === 0 || err.status >= 500 ? html`<div><button class="btn" type="button" @click=${() => void this.load()}>Retry</button></div>` : nothing}</div>`;
  }

  private renderList() {
    const list = this.sessions ?? [];
    if (!list.length) {
      return html`<p class="muted">${this.status ? `No ${statusLabel(this.status).toLowerCase()} sessions.` : 'No signing sessions yet.'}${!this.status && this.canEdit ? ' “New session” makes one, with a link for each signer.' : ''}</p>`;
    }
    const pages = Math.max(1, Math.ceil(this.total / PER_PAGE));
    return html`<div class="scroll" tabindex="0" role="region" aria-label="Signing sessions"><table>
        <caption class="sr-only">Signing sessions, newest first</caption>
        <thead><tr><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Signed</th><th scope="col">Order</th><th scope="col">Expires</th></tr></thead>
        <tbody>${list.map((s) => html`<tr>
          <td><a href=${this.base === null ? '#' : signingSessionPath(this.base, this.store!.formId, s.id)} @click=${(e: Event) => this.open(s.id, e)}>${when(s.created_at)}</a></td>
          <td><span class="badge st-${s.status}">${statusLabel(s.status)}</span></td>
          <td class="num">${s.total_signed} of ${s.total_slots}</td>
          <td>${s.signing_order === 'sequential' ? 'In order' : 'Any order'}</td>
          <td>${when(s.expires_at)}</td>
        </tr>`)}</tbody></table></div>
      <nav class="pager" aria-label="Pages of sessions">
        <span class="muted">Page ${this.page} of ${pages} · ${this.total} session${this.total === 1 ? '' : 's'}</span>
        <span class="row">
          <button class="btn small" type="button" ?disabled=${this.page <= 1} @click=${() => void this.load(this.page - 1)}>Previous page</button>
          <button class="btn small" type="button" ?disabled=${this.page >= pages} @click=${() => void this.load(this.page + 1)}>Next page</button>
        </span>
      </nav>`;
  }

  override render() {
    if (!this.store) return nothing;
    if (!this.contracts.length && !this.sessionId) {
      return html`<div class="wrap"><section class="card stack"><h2>Signing</h2><p>This form has no contract question. Add a “Contract (e-signature)” question to send it for signature.</p></section></div>`;
    }
    if (this.sessionId) {
      return html`<div class="wrap"><fl-session-view .api=${this.api} session-id=${this.sessionId} form-id=${this.store.formId} ?can-edit=${this.canEdit}
        .created=${this.created?.id === this.sessionId ? this.created : null} .backHref=${this.base === null ? null : formPath(this.base, this.store.formId, 'signing')}
        @fl-back=${() => this.back()}></fl-session-view></div>`;
    }
    return html`<div class="wrap">
      <div class="head"><h2>Signing sessions</h2>
        ${this.canEdit && !this.blocked ? html`<button class="btn primary" type="button" @click=${() => (this.renderRoot.querySelector('fl-new-session') as FlNewSession).open()}>New session</button>` : nothing}</div>
      ${this.blocked
        ? html`<section class="card stack" role="alert"><h3>Sessions cannot be created</h3><p>${this.blocked}</p><p class="muted">Contracts come with the Pro plan and higher (the team owner's plan for a team form).</p></section>`
        : nothing}
      ${this.error ? this.renderError(this.error) : nothing}
      ${!this.error
        ? html`<div class="bar" role="search" aria-label="Filter sessions">
            <label class="field">Status<select @change=${(e: Event) => void this.load(1, (e.target as HTMLSelectElement).value as SessionStatus | '')}>
              <option value="" ?selected=${!this.status}>All sessions</option>
              ${SESSION_STATUSES.map(([v, text]) => html`<option value=${v} ?selected=${v === this.status}>${text}</option>`)}
            </select></label>
            <button class="btn" type="button" @click=${() => void this.load()}>Refresh</button>
          </div>
          ${this.sessions ? this.renderList() : html`<p class="muted" role="status">Loading sessions…</p>`}`
        : nothing}
      ${this.canEdit ? html`<fl-new-session .api=${this.api} form-id=${this.store.formId} .contracts=${this.contracts}
        @fl-session-created=${(e: CustomEvent<SigningSession>) => this.onCreated(e)} @fl-session-refused=${(e: CustomEvent<ApiError>) => this.onRefused(e)}></fl-new-session>` : nothing}
    </div>`;
  }
}
customElements.get('fl-signing-panel') || customElements.define('fl-signing-panel', FlSigningPanel);
