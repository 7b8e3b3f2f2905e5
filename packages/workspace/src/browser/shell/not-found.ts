import { LitElement, html, css } from 'lit';
import { tokens, controls } from '../controls/styles';

/** `<fl-not-found>`: a workspace URL that names no screen. */
export class FlNotFound extends LitElement {
  static override styles = [tokens, controls, css`:host { display: block; padding: 2rem 1rem; max-width: 40rem; margin: 0 auto; } p { line-height: 1.5; }`];
  static override properties = { base: {} };
  base = '';
  override render() {
    return html`<h1>Page not found</h1><p>There is nothing at this address. <a href="${this.base}/">Go to your forms</a>.</p>`;
  }
}
customElements.get('fl-not-found') || customElements.define('fl-not-found', FlNotFound);
