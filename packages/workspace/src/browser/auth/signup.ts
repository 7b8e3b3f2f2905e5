import { css, html, nothing } from 'lit';
import { authConfig, signUp, type AuthConfig } from '../../data/auth';
import { afterSignIn, AuthScreen, carry, errorLine } from './auth-card';

const MIN_PASSWORD = 10;

/**
 * `<fl-signup>` at `/signup`: a new account with email and password (docs/accounts.md, "Signing up"). Who
 * may sign up follows `FORMLOOM_SIGNUP`; with `?invite=<token>` the invited address may, and joins the team.
 */
export class FlSignup extends AuthScreen {
  // A long address breaks anywhere rather than push the card past a phone's width.
  static override styles = [...AuthScreen.styles, css`.address { font-weight: 600; overflow-wrap: anywhere; }`];
  static override properties = { ...AuthScreen.properties, config: { state: true }, sentTo: { state: true } };
  config: AuthConfig | null = null;
  sentTo: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    authConfig(this.api).then(
      (c) => (this.config = c),
      () => (this.config = null),
    );
  }

  private onSubmit(e: Event) {
    e.preventDefault();
    const email = this.field('email');
    // Passwords are taken as typed: spaces at either end are part of them.
    const password = this.renderRoot.querySelector<HTMLInputElement>('input[name="password"]')?.value ?? '';
    if (!email) return void (this.error = 'Enter your email.');
    if (password.length < MIN_PASSWORD) return void (this.error = `Choose a password of at least ${MIN_PASSWORD} characters.`);
    void this.run(async () => {
      const invite = this.query?.get('invite') ?? undefined;
      const first = this.field('first_name');
      const last = this.field('last_name');
      const info = await signUp(this.api, { email, password, ...(first ? { first_name: first } : {}), ...(last ? { last_name: last } : {}), ...(invite ? { invitation_token: invite } : {}) });
      // By mail: the account is made from the link we sent (or its owner is told it exists).
      if (!info) return void (this.sentTo = email);
      // The invitation was accepted by the sign-up itself; the forms list says so.
      const rest = new URLSearchParams(this.query);
      rest.delete('invite');
      rest.delete('email');
      await afterSignIn(this, this.api, this.base, info, rest);
    });
  }

  /** Back to the empty form (the link would otherwise lead to this same screen). */
  private startOver = (e: Event) => {
    e.preventDefault();
    this.sentTo = null;
    this.error = null;
  };

  /** Whether this sign-up makes the account from a mailed link (open mode, not the first account, no invitation). */
  private byMail(): boolean {
    const c = this.config;
    return !!c && c.signup === 'open' && c.has_users && !this.query?.get('invite');
  }

  private closedText() {
    const c = this.config;
    if (!c || this.query?.get('invite')) return null;
    if (c.signup === 'closed') return 'This server does not take new accounts: ask its administrator for one.';
    if (c.signup === 'invite' && c.has_users) return 'This server takes new accounts by invitation: use the link in your invitation mail, or ask a team owner to invite you.';
    return null;
  }

  override render() {
    if (this.sentTo) {
      return html`<section class="card" aria-labelledby="signup-title">
        <h1 id="signup-title">Check your mail</h1>
        <p class="notice" role="status">We sent a link to <span class="address">${this.sentTo}</span>.</p>
        <p>Open it within 24 hours and type the same password again: that makes your account.</p>
        <p class="muted">No mail after a few minutes? Look in your spam folder, or sign up again. If this address already has an account, the mail says how to sign in instead.</p>
        <div class="links">
          <a href="${this.base}/signup${carry(this.query)}" @click=${this.startOver}>Use another address</a>
          <a href="${this.base}/signin${carry(this.query)}">Back to sign-in</a>
        </div>
      </section>`;
    }
    const closed = this.closedText();
    const first = this.config && !this.config.has_users;
    return html`<section class="card" aria-labelledby="signup-title">
      <h1 id="signup-title">${first ? 'Create the admin account' : 'Create your Formloom account'}</h1>
      ${first ? html`<p class="notice">You are the first person here: your account administers this server.</p>` : nothing}
      ${closed ? html`<p class="notice" role="status">${closed}</p>` : nothing}
      <form @submit=${this.onSubmit} novalidate>
        <div class="grid2">
          <label class="field">First name<input name="first_name" autocomplete="given-name" /></label>
          <label class="field">Last name<input name="last_name" autocomplete="family-name" /></label>
        </div>
        <label class="field">Email<input name="email" type="email" autocomplete="email" required value=${this.query?.get('email') ?? ''} /></label>
        <label class="field">Password<input name="password" type="password" autocomplete="new-password" minlength=${MIN_PASSWORD} required aria-describedby="pw-hint" />
          <span class="hint" id="pw-hint">At least ${MIN_PASSWORD} characters.</span></label>
        ${errorLine(this.error)}
        <button class="btn primary block" type="submit" ?disabled=${this.busy}>${this.busy ? 'Creating…' : 'Create account'}</button>
      </form>
      <p class="muted">${this.byMail() ? 'We mail you a link: your account is made when you open it.' : 'We send a link to confirm your address.'}</p>
      <div class="links"><a href="${this.base}/signin${carry(this.query)}">I already have an account</a></div>
    </section>`;
  }
}
customElements.get('fl-signup') || customElements.define('fl-signup', FlSignup);
