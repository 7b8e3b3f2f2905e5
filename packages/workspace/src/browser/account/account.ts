import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { changePassword, readAccount, resendVerification, signOut, updateProfile, type AccountInfo } from '../../data/auth';
import { errorLine, messageOf } from '../auth/auth-card';
import { navigate } from '../shell/routes';
import { sectionStyles } from './account-styles';
import './account-security';
import './api-keys';
import './account-plan';
import './account-delete';
import './respondent-data';

/**
 * `<fl-account>` at `/account` (docs/workspace.md, "Your account"): profile, address confirmation, password,
 * passkeys and sessions, API keys, and signing out.
 */
export class FlAccount extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      :host { max-width: 48rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
      .head { display: flex; justify-content: space-between; align-items: center; gap: 1rem; flex-wrap: wrap; margin-bottom: 1rem; }
      .page { display: grid; gap: 1rem; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    base: {},
    account: { state: true },
    error: { state: true },
    profileMsg: { state: true },
    passwordMsg: { state: true },
    passwordError: { state: true },
    verifyMsg: { state: true },
  };
  api!: Api;
  base = '';
  account: AccountInfo | null = null;
  error: string | null = null;
  profileMsg: string | null = null;
  passwordMsg: string | null = null;
  passwordError: string | null = null;
  verifyMsg: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    readAccount(this.api).then(
      (a) => (this.account = a),
      (e) => (this.error = messageOf(e)),
    );
  }

  private async onProfile(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.profileMsg = null;
    try {
      this.account = await updateProfile(this.api, { first_name: String(data.get('first_name') ?? '').trim() || null, last_name: String(data.get('last_name') ?? '').trim() || null });
      this.profileMsg = 'Saved.';
    } catch (err) {
      this.profileMsg = messageOf(err);
    }
  }

  private async onPassword(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const current = String(data.get('current_password') ?? '');
    const next = String(data.get('new_password') ?? '');
    this.passwordMsg = this.passwordError = null;
    if (next.length < 10) return void (this.passwordError = 'Choose a new password of at least 10 characters.');
    try {
      await changePassword(this.api, current, next);
      form.reset();
      this.passwordMsg = 'Password changed. Every other place you were signed in is signed out.';
    } catch (err) {
      this.passwordError = messageOf(err);
    }
  }

  private async onResend() {
    try {
      await resendVerification(this.api);
      this.verifyMsg = `We sent a new confirmation link to ${this.account?.user.email}.`;
    } catch (e) {
      this.verifyMsg = messageOf(e);
    }
  }

  private async onSignOut() {
    try {
      await signOut(this.api);
    } catch (e) {
      this.error = messageOf(e);
      return;
    }
    this.dispatchEvent(new CustomEvent('fl-session', { detail: null, bubbles: true, composed: true }));
    navigate(`${this.base}/signin`, true);
  }

  override render() {
    const a = this.account;
    if (!a) return this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : html`<p class="muted" role="status">Loading your account…</p>`;
    const u = a.user;
    return html`<div class="head"><h1>Your account</h1><button class="btn" type="button" @click=${this.onSignOut}>Sign out</button></div>
      <div class="page">
        ${u.email_verified ? nothing : html`<div class="notice" role="status"><p>Confirm your address <strong>${u.email}</strong> with the link we mailed you: voice keys work only for confirmed addresses.</p>
          <div class="row" style="margin-top:.5rem"><button class="btn small" type="button" @click=${this.onResend}>Send the link again</button> <span>${this.verifyMsg ?? ''}</span></div></div>`}
        <section class="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Profile</h2>
          <p><strong>${u.email}</strong> ${u.email_verified ? html`<span class="badge ok">confirmed</span>` : html`<span class="badge">not confirmed</span>`}</p>
          <p class="meta">Plan: ${u.plan}${a.is_admin ? ' · administrator of this server' : ''}</p>
          <form @submit=${this.onProfile}>
            <div class="grid2">
              <label class="field">First name<input name="first_name" autocomplete="given-name" .value=${u.first_name ?? ''} /></label>
              <label class="field">Last name<input name="last_name" autocomplete="family-name" .value=${u.last_name ?? ''} /></label>
            </div>
            <div class="row"><button class="btn primary" type="submit">Save profile</button><span role="status">${this.profileMsg ?? ''}</span></div>
          </form>
        </section>
        <section class="card" aria-labelledby="pw-title">
          <h2 id="pw-title">Password</h2>
          <form @submit=${this.onPassword}>
            <input type="text" name="username" autocomplete="username" .value=${u.email} hidden />
            <div class="grid2">
              <label class="field">Current password<input name="current_password" type="password" autocomplete="current-password" /></label>
              <label class="field">New password<input name="new_password" type="password" autocomplete="new-password" minlength="10" /></label>
            </div>
            ${errorLine(this.passwordError)}
            <div class="row"><button class="btn primary" type="submit">Change password</button><span class="ok-text" role="status">${this.passwordMsg ?? ''}</span></div>
          </form>
        </section>
        <fl-account-security .api=${this.api} base=${this.base}></fl-account-security>
        <fl-api-keys .api=${this.api}></fl-api-keys>
        <fl-account-plan .api=${this.api} base=${this.base} plan=${u.plan}></fl-account-plan>
        <section class="card" aria-labelledby="data-title">
          <h2 id="data-title">Your data</h2>
          <p>Download everything this server holds about you as a ZIP file: your account, keys (never their secrets), teams, forms and their logos, credits and voice audio.</p>
          <div class="row"><a class="btn" href="${this.api.base}/account/export" download>Download my data</a></div>
        </section>
        <fl-respondent-data .api=${this.api}></fl-respondent-data>
        <fl-account-delete .api=${this.api} base=${this.base}></fl-account-delete>
      </div>`;
  }
}
customElements.get('fl-account') || customElements.define('fl-account', FlAccount);
