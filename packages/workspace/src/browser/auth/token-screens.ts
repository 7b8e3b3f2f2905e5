import { html, nothing } from 'lit';
import { completePasswordReset, verifyEmail, verifyEmailLink } from '../../data/auth';
import { afterSignIn, AuthScreen, errorLine, fragmentToken, messageOf } from './auth-card';

/*
 * The pages that mail links open (docs/accounts.md, "Links by email"): `/auth/link` signs in, `/auth/verify`
 * confirms the address, `/auth/reset` sets a new password (`/auth/finish`, the sign-up link, is in
 * signup-finish.ts). The token travels in the URL's fragment; it is removed from the address bar as soon as
 * it is read, so it stays out of history and screenshots.
 */

function takeToken(): string | null {
  const token = fragmentToken();
  if (token) history.replaceState(null, '', location.pathname);
  return token;
}

/** A screen opened by a mailed link: its token, taken from the fragment when the screen appears. */
export class TokenScreen extends AuthScreen {
  static override properties = { ...AuthScreen.properties, done: { state: true } };
  done = false;
  protected token: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.token = takeToken();
    if (!this.token) this.error = 'This page needs the link from your mail. Open the link again, or ask for a new one.';
  }
}

/** `<fl-auth-link>`: signs in with a one-time link, at once. */
export class FlAuthLink extends TokenScreen {
  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.token) return;
    this.busy = true;
    verifyEmailLink(this.api, this.token).then(
      (info) => afterSignIn(this, this.api, this.base, info, this.query),
      (e) => {
        this.busy = false;
        this.error = messageOf(e);
      },
    );
  }
  override render() {
    return html`<section class="card" aria-labelledby="t" aria-busy=${this.busy ? 'true' : 'false'}>
      <h1 id="t">Signing you in</h1>
      ${this.busy ? html`<p role="status">Checking your link…</p>` : errorLine(this.error)}
      ${this.error ? html`<div class="links"><a href="${this.base}/signin">Back to sign-in</a></div>` : nothing}
    </section>`;
  }
}

/** `<fl-auth-verify>`: confirms the address the link was sent to. */
export class FlAuthVerify extends TokenScreen {
  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.token) return;
    this.busy = true;
    verifyEmail(this.api, this.token).then(
      () => {
        this.busy = false;
        this.done = true;
        this.dispatchEvent(new CustomEvent('fl-session-changed', { bubbles: true, composed: true }));
      },
      (e) => {
        this.busy = false;
        this.error = messageOf(e);
      },
    );
  }
  override render() {
    return html`<section class="card" aria-labelledby="t" aria-busy=${this.busy ? 'true' : 'false'}>
      <h1 id="t">Confirm your address</h1>
      ${this.busy ? html`<p role="status">Confirming…</p>` : nothing}
      ${this.done ? html`<p class="notice" role="status">Your address is confirmed. Thank you!</p>` : errorLine(this.error)}
      <div class="links"><a href="${this.base}/">Go to your forms</a></div>
    </section>`;
  }
}

/** `<fl-auth-reset>`: a new password from a reset link; every other session of the account ends. */
export class FlAuthReset extends TokenScreen {
  private async onSubmit(e: Event) {
    e.preventDefault();
    const password = this.renderRoot.querySelector<HTMLInputElement>('input[name="password"]')?.value ?? '';
    const again = this.renderRoot.querySelector<HTMLInputElement>('input[name="password2"]')?.value ?? '';
    if (password.length < 10) return void (this.error = 'Choose a password of at least 10 characters.');
    if (password !== again) return void (this.error = 'The two passwords differ.');
    if (!this.token) return;
    this.busy = true;
    this.error = null;
    try {
      await afterSignIn(this, this.api, this.base, await completePasswordReset(this.api, this.token, password), this.query);
    } catch (err) {
      this.error = messageOf(err);
      this.busy = false;
    }
  }
  override render() {
    return html`<section class="card" aria-labelledby="t">
      <h1 id="t">Choose a new password</h1>
      <form @submit=${this.onSubmit} novalidate>
        <label class="field">New password<input name="password" type="password" autocomplete="new-password" minlength="10" required /></label>
        <label class="field">New password, again<input name="password2" type="password" autocomplete="new-password" minlength="10" required /></label>
        ${errorLine(this.error)}
        <button class="btn primary block" type="submit" ?disabled=${this.busy || !this.token}>Set the password and sign in</button>
      </form>
      <p class="muted">Every other place you are signed in is signed out.</p>
      <div class="links"><a href="${this.base}/forgot">Ask for a new link</a></div>
    </section>`;
  }
}

customElements.get('fl-auth-link') || customElements.define('fl-auth-link', FlAuthLink);
customElements.get('fl-auth-verify') || customElements.define('fl-auth-verify', FlAuthVerify);
customElements.get('fl-auth-reset') || customElements.define('fl-auth-reset', FlAuthReset);
