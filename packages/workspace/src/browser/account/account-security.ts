import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { addPasskey, deletePasskey, endSession, listPasskeys, listSessions, signOut, type ActiveSession, type Passkey } from '../../data/auth';
import { errorLine, messageOf } from '../auth/auth-card';
import { navigate } from '../shell/routes';
import { browserName, sectionStyles, when } from './account-styles';
import '../controls/confirm-dialog';
import type { FlConfirm } from '../controls/confirm-dialog';

/**
 * `<fl-account-security>`: passkeys (added here after a first sign-in, docs/accounts.md "Passkeys") and the
 * places the account is signed in, each of which can be signed out, or all at once.
 */
export class FlAccountSecurity extends LitElement {
  static override styles = [tokens, controls, sectionStyles];
  static override properties = {
    api: { attribute: false },
    base: {},
    passkeys: { state: true },
    sessions: { state: true },
    error: { state: true },
    info: { state: true },
    busy: { state: true },
  };
  api!: Api;
  base = '';
  passkeys: Passkey[] | null = null;
  sessions: ActiveSession[] | null = null;
  error: string | null = null;
  info: string | null = null;
  busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      [this.passkeys, this.sessions] = await Promise.all([listPasskeys(this.api), listSessions(this.api)]);
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private confirm(heading: string, body: string, confirmText: string): Promise<boolean> {
    return this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({ heading, body, confirmText, danger: true });
  }

  private async act(work: () => Promise<void>, done?: string) {
    this.busy = true;
    this.error = null;
    this.info = null;
    try {
      await work();
      if (done) this.info = done;
      await this.load();
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  private onAddPasskey(e: Event) {
    e.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="passkey_name"]');
    const name = input?.value.trim() ?? '';
    void this.act(async () => {
      await addPasskey(this.api, name);
      if (input) input.value = '';
    }, 'Passkey added: you can sign in with it from now on.');
  }

  private async removePasskey(p: Passkey) {
    if (!(await this.confirm('Remove this passkey?', `"${p.name || 'Passkey'}" will no longer sign you in.`, 'Remove'))) return;
    await this.act(() => deletePasskey(this.api, p.id), 'Passkey removed.');
  }

  private async end(s: ActiveSession) {
    if (s.current) return this.signOutHere(false);
    await this.act(() => endSession(this.api, s.id), 'That session is signed out.');
  }

  private async signOutHere(everywhere: boolean) {
    if (everywhere && !(await this.confirm('Sign out everywhere?', 'Every browser signed in to this account, this one included, is signed out.', 'Sign out everywhere'))) return;
    try {
      await signOut(this.api, everywhere);
    } catch (e) {
      this.error = messageOf(e);
      return;
    }
    this.dispatchEvent(new CustomEvent('fl-session', { detail: null, bubbles: true, composed: true }));
    navigate(`${this.base}/signin`, true);
  }

  private renderPasskeys() {
    const supported = typeof window.PublicKeyCredential === 'function';
    return html`<section class="card" aria-labelledby="pk-title">
      <h2 id="pk-title">Passkeys</h2>
      <p class="muted">Sign in with your device's screen lock or a security key instead of a password.</p>
      ${this.passkeys === null ? html`<p class="muted">Loading…</p>` : this.passkeys.length === 0 ? html`<p class="muted">No passkeys yet.</p>` : html`<ul class="rows">
        ${this.passkeys.map((p) => html`<li><div class="what"><strong>${p.name || 'Passkey'}</strong><span class="meta">added ${when(p.created_at)} · last used ${when(p.last_used_at)}</span></div>
          <button class="btn small danger" type="button" ?disabled=${this.busy} @click=${() => void this.removePasskey(p)} aria-label="Remove passkey ${p.name || ''}">Remove</button></li>`)}
      </ul>`}
      ${supported
        ? html`<form @submit=${this.onAddPasskey} class="row">
            <label class="field" style="flex:1 1 12rem">Name of the new passkey<input name="passkey_name" maxlength="100" placeholder="e.g. My laptop" /></label>
            <button class="btn primary" type="submit" ?disabled=${this.busy} style="align-self:end">Add a passkey</button>
          </form>`
        : html`<p class="muted">This browser does not support passkeys.</p>`}
    </section>`;
  }

  private renderSessions() {
    return html`<section class="card" aria-labelledby="ses-title">
      <h2 id="ses-title">Where you are signed in</h2>
      ${this.sessions === null ? html`<p class="muted">Loading…</p>` : html`<ul class="rows">
        ${this.sessions.map((s) => html`<li><div class="what"><strong title=${s.user_agent ?? ''}>${browserName(s.user_agent)} ${s.current ? html`<span class="badge ok">this browser</span>` : nothing}</strong>
          <span class="meta">${s.ip_address ?? 'unknown address'} · signed in ${when(s.created_at)} · last seen ${when(s.last_seen_at)}</span></div>
          <button class="btn small" type="button" ?disabled=${this.busy} @click=${() => void this.end(s)}>Sign out</button></li>`)}
      </ul>`}
      <div class="row"><button class="btn danger" type="button" ?disabled=${this.busy} @click=${() => void this.signOutHere(true)}>Sign out everywhere</button></div>
    </section>`;
  }

  override render() {
    return html`<div class="stack">
      ${errorLine(this.error)}
      ${this.info ? html`<p class="notice" role="status">${this.info}</p>` : nothing}
      ${this.renderPasskeys()} ${this.renderSessions()}
      <fl-confirm></fl-confirm>
    </div>`;
  }
}
customElements.get('fl-account-security') || customElements.define('fl-account-security', FlAccountSecurity);
