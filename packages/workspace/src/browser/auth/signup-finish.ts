import { html, nothing, type TemplateResult } from 'lit';
import { ApiError } from '../../data/client';
import { finishSignUp } from '../../data/auth';
import { afterSignIn, errorLine, messageOf } from './auth-card';
import { TokenScreen } from './token-screens';

/*
 * `<fl-auth-finish>` (`/auth/finish#token=...`, docs/accounts.md "Who may sign up"): the sign-up link makes
 * the account with the password chosen at sign-up, typed again, so someone who follows a link they did not
 * ask for makes nothing. A link that cannot make an account any more (none, expired or used, or the address
 * has an account by now) says what to do instead and shows no form: typing a password again would not help.
 */

/** Why the link cannot make an account: each gets its own words and way on. */
type Dead = 'missing' | 'expired' | 'exists';

export class FlAuthFinish extends TokenScreen {
  static override properties = { ...TokenScreen.properties, dead: { state: true } };
  dead: Dead | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.token) {
      this.error = null;
      this.dead = 'missing';
    }
  }

  private async onSubmit(e: Event) {
    e.preventDefault();
    const password = this.renderRoot.querySelector<HTMLInputElement>('input[name="password"]')?.value ?? '';
    if (!password) return void (this.error = 'Type the password you chose when you signed up.');
    if (!this.token) return;
    this.busy = true;
    this.error = null;
    try {
      await afterSignIn(this, this.api, this.base, await finishSignUp(this.api, this.token, password), this.query);
    } catch (err) {
      this.busy = false;
      if (err instanceof ApiError && err.reason === 'invalid_token') return void (this.dead = 'expired');
      if (err instanceof ApiError && err.status === 409) return void (this.dead = 'exists');
      this.error =
        err instanceof ApiError && err.reason === 'invalid_credentials'
          ? 'That is not the password you chose when you signed up. Try again, or sign up again to choose a new one.'
          : messageOf(err);
    }
  }

  private deadEnd(dead: Dead): TemplateResult {
    const signIn = html`<a href="${this.base}/signin">Sign in</a>`;
    const signUp = html`<a href="${this.base}/signup">Sign up again</a>`;
    const [text, links] =
      dead === 'missing'
        ? ['This page opens from the link in your sign-up mail. Open that link again, or sign up again to get a new one.', [signUp, signIn]]
        : dead === 'expired'
          ? ['This link has expired or was already used: each link works once, for 24 hours. If you already made your account, sign in. If not, sign up again to get a new link.', [signIn, signUp]]
          : ['This address has an account already. Sign in, or ask for a password reset if you do not know its password.', [signIn, html`<a href="${this.base}/forgot">Reset the password</a>`]];
    return html`<p class="error-text on" role="alert">${text}</p>
      <div class="links">${links}</div>`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="t" aria-busy=${this.busy ? 'true' : 'false'}>
      <h1 id="t">Finish making your account</h1>
      ${this.dead
        ? this.deadEnd(this.dead)
        : html`<p>Type the password you chose when you signed up. Your account is made as soon as it matches.</p>
            <form @submit=${this.onSubmit} novalidate>
              <label class="field">Your password<input name="password" type="password" autocomplete="current-password" required /></label>
              ${errorLine(this.error)}
              <button class="btn primary block" type="submit" ?disabled=${this.busy}>${this.busy ? 'Making your account…' : 'Make my account'}</button>
            </form>
            <p class="muted">Did not sign up? Close this page: no account is made.</p>
            <div class="links"><a href="${this.base}/signin">Back to sign-in</a></div>`}
      ${this.busy ? html`<p class="sr-only" role="status">Making your account…</p>` : nothing}
    </section>`;
  }
}

customElements.get('fl-auth-finish') || customElements.define('fl-auth-finish', FlAuthFinish);
