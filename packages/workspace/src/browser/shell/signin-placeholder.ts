import { LitElement, html, css } from 'lit';
import { tokens, controls } from '../controls/styles';

/**
 * Shown at `/signin` (and wherever a session is needed) until the sign-in screens are installed: the shell
 * replaces it with `<formloom-signin>` when that element is defined (docs/workspace.md, "Sign-in").
 */
export class FlSigninPlaceholder extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; place-items: center; min-height: 70vh; padding: 1rem; }
      .card { max-width: 28rem; display: grid; gap: 0.75rem; }
      p { margin: 0; line-height: 1.5; }
      code { font-size: 0.875rem; }
    `,
  ];

  override render() {
    return html`<section class="card" aria-labelledby="t">
      <h1 id="t">Sign in to Formloom</h1>
      <p>You are not signed in. Sign in on this server to see and build your forms.</p>
      <p class="muted">This server does not offer sign-in in the browser yet. Programs keep using API keys: see <code>docs/getting-started.md</code>.</p>
      <div class="row"><button class="btn primary" type="button" @click=${() => location.reload()}>Try again</button></div>
    </section>`;
  }
}
customElements.get('fl-signin-placeholder') || customElements.define('fl-signin-placeholder', FlSigninPlaceholder);
