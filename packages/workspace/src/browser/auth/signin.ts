import { html, nothing } from 'lit';
import { authConfig, requestEmailLink, signIn, signInWithPasskey, type AuthConfig } from '../../data/auth';
import { afterSignIn, AuthScreen, carry, errorLine } from './auth-card';

/**
 * `<fl-signin>` at `/signin`: email and password, a one-time link by email, or a passkey (docs/workspace.md,
 * "Signing in"). `?invite=<token>` comes from a team invitation mail and is accepted once signed in.
 */
export class FlSignin extends AuthScreen {
  static override properties = { ...AuthScreen.properties, mode: { state: true }, sent: { state: true }, config: { state: true } };
  mode: 'password' | 'link' = 'password';
  sent: string | null = null;
  config: AuthConfig | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    authConfig(this.api).then(
      (c) => (this.config = c),
      () => (this.config = null),
    );
  }

  private onPassword(e: Event) {
    e.preventDefault();
    const email = this.field('email');
    const password = (this.renderRoot.querySelector<HTMLInputElement>('input[name="password"]')?.value ?? '');
    if (!email || !password) {
      this.error = 'Enter your email and your password.';
      return;
    }
    void this.run(async () => afterSignIn(this, this.api, this.base, await signIn(this.api, email, password), this.query));
  }

  private onLink(e: Event) {
    e.preventDefault();
    const email = this.field('email');
    if (!email) {
      this.error = 'Enter your email.';
      return;
    }
    void this.run(async () => {
      await requestEmailLink(this.api, email);
      this.sent = email;
    });
  }

  private onPasskey() {
    void this.run(async () => afterSignIn(this, this.api, this.base, await signInWithPasskey(this.api), this.query));
  }

  private switchMode(mode: 'password' | 'link') {
    this.mode = mode;
    this.error = null;
    this.sent = null;
  }

  override render() {
    const invite = this.query?.get('invite');
    const passkeys = this.config?.passkeys !== false && typeof window.PublicKeyCredential === 'function';
    const canSignUp = this.config && this.config.signup !== 'closed';
    return html`<section class="card" aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to Formloom</h1>
      ${invite ? html`<p class="notice">Sign in with the address the invitation was sent to, and you join the team.</p>` : nothing}
      ${this.sent
        ? html`<p class="notice" role="status">We sent a sign-in link to <strong>${this.sent}</strong>. It works once, for 15 minutes.</p>
            <button class="btn" type="button" @click=${() => this.switchMode('password')}>Back to sign-in</button>`
        : this.mode === 'password'
          ? html`<form @submit=${this.onPassword} novalidate>
              <label class="field">Email<input name="email" type="email" autocomplete="username webauthn" required value=${this.query?.get('email') ?? ''} /></label>
              <label class="field">Password<input name="password" type="password" autocomplete="current-password" required /></label>
              ${errorLine(this.error)}
              <button class="btn primary block" type="submit" ?disabled=${this.busy}>${this.busy ? 'Signing in…' : 'Sign in'}</button>
            </form>`
          : html`<form @submit=${this.onLink} novalidate>
              <label class="field">Email<input name="email" type="email" autocomplete="email" required /></label>
              ${errorLine(this.error)}
              <button class="btn primary block" type="submit" ?disabled=${this.busy}>Email me a sign-in link</button>
            </form>`}
      <div class="alt">
        <div class="divider">or</div>
        ${this.mode === 'password'
          ? html`<button class="btn block" type="button" @click=${() => this.switchMode('link')}>Email me a sign-in link instead</button>`
          : html`<button class="btn block" type="button" @click=${() => this.switchMode('password')}>Use my password instead</button>`}
        ${passkeys ? html`<button class="btn block" type="button" ?disabled=${this.busy} @click=${this.onPasskey}>Sign in with a passkey</button>` : nothing}
      </div>
      <div class="links">
        <a href="${this.base}/forgot${carry(this.query)}">Forgot your password?</a>
        ${canSignUp ? html`<a href="${this.base}/signup${carry(this.query)}">Create an account</a>` : nothing}
      </div>
    </section>`;
  }
}
customElements.get('fl-signin') || customElements.define('fl-signin', FlSignin);
