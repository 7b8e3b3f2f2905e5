import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { documentUrl, getAudit, getSession, listDocuments, resendRequest, statusLabel, voidSession, type AuditEntry, type SignedDocument, type SignerLink, type SigningSession } from '../../data/signing';
import { signingStyles } from './signing-styles';
import { copyText, when } from './signing-format';
import { checkChain, type ChainCheck } from './audit-chain';
import './void-dialog';
import './audit-trail';
import type { FlVoidSession } from './void-dialog';

/** How often an open session's page looks for signatures and sealed documents (any instance may record them). */
const POLL_MS = 5_000;

/**
 * `<fl-session-view session-id form-id can-edit>`: one signing session (docs/workspace.md, "Signing"): its
 * state, each signer's status, times and link (with copy), resend and void for those who may edit, the sealed
 * PDFs, and the audit trail with the browser's own check of its hash chain.
 */
export class FlSessionView extends LitElement {
  static override styles = [tokens, controls, signingStyles, css`:host { display: grid; gap: 1rem; } h4 { margin: 0; font-size: 1rem; }`];
  static override properties = {
    api: { attribute: false },
    sessionId: { attribute: 'session-id' },
    formId: { attribute: 'form-id' },
    canEdit: { attribute: 'can-edit', type: Boolean },
    created: { attribute: false },
    backHref: { attribute: false },
    session: { state: true },
    documents: { state: true },
    audit: { state: true },
    chain: { state: true },
    error: { state: true },
    actionError: { state: true },
    notice: { state: true },
  };
  api!: Api;
  sessionId = '';
  formId = '';
  canEdit = false;
  /** The session just created (its links are announced first). */
  created: SigningSession | null = null;
  /** The list's URL; null alone in a host page, where "All sessions" fires `fl-back`. */
  backHref: string | null = null;
  session: SigningSession | null = null;
  documents: SignedDocument[] = [];
  audit: AuditEntry[] = [];
  chain: ChainCheck | null = null;
  error: { status: number; message: string } | null = null;
  actionError = '';
  notice = '';
  private loadedId = '';
  private timer: ReturnType<typeof setInterval> | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => void this.poll(), POLL_MS);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  override willUpdate(): void {
    if (this.sessionId && this.sessionId !== this.loadedId) {
      this.loadedId = this.sessionId;
      this.session = this.created?.id === this.sessionId ? this.created : null;
      this.error = null;
      this.notice = '';
      this.chain = null;
      void this.load(true);
    }
  }

  async load(focus = false) {
    const id = this.sessionId;
    try {
      const [session, docs, audit] = await Promise.all([getSession(this.api, id), listDocuments(this.api, id), getAudit(this.api, id)]);
      if (id !== this.sessionId) return;
      this.session = session;
      this.documents = docs.documents;
      this.audit = audit.entries;
      this.error = null;
      this.chain = await checkChain(audit.entries);
    } catch (e) {
      this.error = { status: e instanceof ApiError ? e.status : 0, message: (e as Error).message };
    }
    if (focus) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    }
  }

  /** Until the session ends and its PDFs are sealed, a signature elsewhere shows up here by itself. */
  private async poll() {
    const s = this.session;
    if (!s || this.error || document.hidden) return;
    const settled = s.status === 'declined' || s.status === 'expired' || ((s.status === 'fully_signed' || s.status === 'voided') && this.documents.length > 0);
    if (!settled) await this.load();
  }

  private async act(work: () => Promise<string>) {
    try {
      this.notice = await work();
      this.actionError = '';
      await this.load();
    } catch (e) {
      this.actionError = (e as Error).message;
    }
  }

  private resend(l: SignerLink) {
    return this.act(async () => `Signing request sent again to ${(await resendRequest(this.api, this.sessionId, l.slot_number)).sent_to}.`);
  }

  private async voidIt() {
    const reason = await (this.renderRoot.querySelector('fl-void-session') as FlVoidSession).ask();
    if (reason === null) return;
    await this.act(async () => {
      await voidSession(this.api, this.sessionId, reason);
      return 'Session voided. The pending links no longer work.';
    });
  }

  private async copy(l: SignerLink, e: Event) {
    const input = (e.target as HTMLElement).closest('.link')?.querySelector('input') ?? null;
    this.notice = (await copyText(l.signing_url, input)) ? `Link for ${l.slot_label} copied.` : 'Copying failed: select the link and copy it.';
  }

  private back(e: Event) {
    if (this.backHref !== null) return; // a workspace URL: the shell follows the link
    e.preventDefault();
    this.dispatchEvent(new CustomEvent('fl-back', { bubbles: true, composed: true }));
  }

  private renderSigner(l: SignerLink, s: SigningSession) {
    const name = [l.first_name, l.last_name].filter(Boolean).join(' ');
    const canResend = this.canEdit && s.status === 'active' && l.status === 'pending' && !!l.email;
    // A link still does something while the session is open, and for a signer of a completed one (their copies).
    const live = s.status === 'active' || (s.status === 'fully_signed' && l.status === 'signed');
    return html`<li class="signer">
      <div class="who"><h4>${l.slot_label}${name ? html` · ${name}` : nothing}</h4><span class="badge st-${l.status}">${l.status === 'pending' ? 'Not signed yet' : l.status === 'signed' ? 'Signed' : 'Declined'}</span></div>
      ${l.email ? html`<p class="muted">${l.email}</p>` : nothing}
      <ul class="times">
        <li>Opened: ${when(l.viewed_at)}</li>
        ${l.signed_at ? html`<li>Signed: ${when(l.signed_at)}</li>` : nothing}
        ${l.declined_at ? html`<li>Declined: ${when(l.declined_at)}</li>` : nothing}
      </ul>
      ${l.status === 'declined' && l.decline_reason ? html`<p>Reason: ${l.decline_reason}</p>` : nothing}
      ${live ? html`<div class="link">
        <label class="field">Signing link for ${l.slot_label}<input type="text" readonly .value=${l.signing_url} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} /></label>
        <div class="row">
          <button class="btn" type="button" aria-label="Copy link for ${l.slot_label}" @click=${(e: Event) => void this.copy(l, e)}>Copy link</button>
          ${canResend ? html`<button class="btn" type="button" aria-label="Resend email to ${l.slot_label}" @click=${() => void this.resend(l)}>Resend email</button>` : nothing}
        </div>
      </div>` : nothing}
    </li>`;
  }

  private renderDocuments(s: SigningSession) {
    const waiting = s.status === 'fully_signed' || (s.status === 'voided' && s.total_signed > 0);
    return html`<section class="card stack" aria-labelledby="docs-h">
      <h3 id="docs-h">Documents</h3>
      ${this.documents.length
        ? html`<ul class="docs">${this.documents.map((d) => html`<li>
            <div><strong>${d.question_title}</strong>${s.status === 'voided' ? ' (watermarked VOIDED)' : ''}<div class="muted hint">Sealed ${when(d.generated_at)} · <span class="hash">${d.document_hash}</span></div></div>
            <a class="btn" href=${documentUrl(this.api, s.id, d.id)} download aria-label="Download PDF: ${d.question_title}">Download PDF</a></li>`)}</ul>`
        : html`<p class="muted">${waiting ? 'The signed PDFs are being sealed; they appear here in a moment.' : s.status === 'active' ? 'One sealed PDF per contract appears here once everyone has signed.' : 'No documents: nobody had signed.'}</p>`}
    </section>`;
  }

  override render() {
    const back = html`<p><a href=${this.backHref ?? '#'} @click=${(e: Event) => this.back(e)}>← All sessions</a></p>`;
    if (this.error && (this.error.status === 404 || !this.session)) {
      const text = this.error.status === 404 ? 'This session does not exist any more: the form may have been deleted in another tab or by someone else.' : this.error.message;
      return html`${back}<section class="card stack" role="alert"><h2 tabindex="-1">Signing session not available</h2><p>${text}</p></section>`;
    }
    const s = this.session;
    if (!s) return html`${back}<p class="muted" role="status">Loading the session…</p>`;
    return html`${back}
      <div class="head"><h2 tabindex="-1">Signing session <span class="badge st-${s.status}">${statusLabel(s.status)}</span></h2>
        <div class="row"><button class="btn" type="button" @click=${() => void this.load()}>Refresh</button>
        ${this.canEdit && s.status === 'active' ? html`<button class="btn danger" type="button" @click=${() => void this.voidIt()}>Void session…</button>` : nothing}</div></div>
      ${this.created?.id === s.id && s.status === 'active' ? html`<section class="card notice" role="status"><p><strong>Session created.</strong> Send each signer their link below${s.signer_links.some((l) => l.email) ? ' (or let the email do it, if you chose so)' : ''}.</p></section>` : nothing}
      <p class="sr-only" role="status" aria-live="polite">${this.notice}</p>
      ${this.actionError ? html`<p class="error-text" role="alert">${this.actionError}</p>` : nothing}
      ${this.error ? html`<p class="error-text" role="alert">${this.error.message}</p>` : nothing}
      <dl class="meta card">
        <div><dt>Signed</dt><dd>${s.total_signed} of ${s.total_slots}</dd></div>
        <div><dt>Order</dt><dd>${s.signing_order === 'sequential' ? 'In slot order' : 'Any order'}</dd></div>
        <div><dt>Created</dt><dd>${when(s.created_at)}</dd></div>
        <div><dt>${s.status === 'expired' ? 'Expired' : 'Expires'}</dt><dd>${when(s.expires_at)}</dd></div>
        <div><dt>Signed copies</dt><dd>${{ ask: 'Each signer chooses', always: 'Emailed to every signer', disabled: 'None' }[s.copy_mode]}</dd></div>
        ${s.voided_at ? html`<div><dt>Voided</dt><dd>${when(s.voided_at)}: ${s.void_reason}</dd></div>` : nothing}
      </dl>
      <section class="card stack" aria-labelledby="signers-h"><h3 id="signers-h">Signers</h3>
        <ul class="signers">${s.signer_links.map((l) => this.renderSigner(l, s))}</ul></section>
      ${this.renderDocuments(s)}
      <fl-audit-trail .entries=${this.audit} .check=${this.chain} .labels=${new Map(s.signer_links.map((l) => [l.slot_number, l.slot_label]))}></fl-audit-trail>
      ${this.canEdit ? html`<fl-void-session></fl-void-session>` : nothing}`;
  }
}
customElements.get('fl-session-view') || customElements.define('fl-session-view', FlSessionView);
