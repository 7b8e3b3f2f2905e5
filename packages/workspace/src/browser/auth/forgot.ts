import { html } from 'lit';
import { requestPasswordReset } from '../../data/auth';
import { AuthScreen, carry, errorLine } from './auth-card';

/**
 * `<fl-forgot>` at `/forgot`: asks for a password-reset mail. The answer is the same whether or not the
 * address has an account, so the screen never tells who is registered (docs/security.md).
 */
export class FlForgot extends AuthScreen {
  static override properties = { ...AuthScreen.properties, sent: { state: true } };
  sent: string | null = null;

  private onSubmit(e: Event) {
    e.preventDefault();
    const email = this.field('email');
    if (!email) return void (this.error = 'Enter your email.');
    void this.run(async () => {
      await requestPasswordReset(this.api, email);
      this.sent = email;
    });
  }

  override render() {
    return html`<section class="card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Reset your password</h1>
      ${this.sent
        ? html`<p class="notice" role="status">If <strong>${this.sent}</strong> has an account here, a reset link is on its way. It works once, for one hour.</p>`
        : html`<p class="muted">Enter the address of your account; we mail you a link to choose a new password.</p>
            <form @submit=${this.onSubmit} novalidate>
              <label class="field">Email<input name="email" type="email" autocomplete="email" required /></label>
              ${errorLine(this.error)}
              <button class="btn primary block" type="submit" ?disabled=${this.busy}>Send the reset link</button>
            </form>`}
      <div class="links"><a href="${this.base}/signin${carry(this.query)}">Back to sign-in</a></div>
    </section>`;
  }
}
customElements.get('fl-forgot') || customElements.define('fl-forgot', FlForgot);
