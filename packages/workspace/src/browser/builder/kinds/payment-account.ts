import { LitElement, css, html, nothing } from 'lit';
import { controls, tokens } from '../../controls/styles';
import type { Api } from '../../../data/client';
import { getPaymentAccount, startPaymentOnboarding, type PaymentAccount } from '../../../data/payments';

/**
 * `<fl-payment-account>`: the owner's own Stripe account, where payment questions with "Your own account" are paid
 * (docs/payments.md, "Stripe Connect"): its state, and "Connect your Stripe account" (or "Finish Stripe's
 * set-up"), which opens Stripe's onboarding and comes back to this page.
 */
export class FlPaymentAccount extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; }
      .box { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; display: grid; gap: 0.6rem; }
      p { margin: 0; }
      .ok { color: var(--_success); }
    `,
  ];
  static override properties = { api: { attribute: false }, state: { state: true }, busy: { state: true }, message: { state: true } };
  api: Api | null = null;
  state: PaymentAccount | null = null;
  busy = false;
  message = '';

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    if (!this.api) return;
    try {
      this.state = await getPaymentAccount(this.api);
    } catch (e) {
      this.message = (e as Error).message;
    }
  }

  private async onboard() {
    if (!this.api) return;
    this.busy = true;
    this.message = '';
    try {
      const { url } = await startPaymentOnboarding(this.api, `${location.pathname}${location.search}`);
      location.assign(url);
    } catch (e) {
      this.message = (e as Error).message;
      this.busy = false;
    }
  }

  override render() {
    const s = this.state;
    if (!s) return html`<p class="muted" role="status">${this.message || 'Loading your payment account…'}</p>`;
    if (!s.configured) return html`<div class="box"><p>Payments are not set up on this server yet: whoever runs it needs to add Stripe's keys.</p></div>`;
    if (!s.connect_allowed) return html`<div class="box"><p>Payments into your own account need the Pro plan or higher. Use the platform account, or upgrade.</p></div>`;
    return html`<div class="box" aria-live="polite">
      ${s.charges_enabled
        ? html`<p class="ok">Your Stripe account is connected and ready to take payments.</p>`
        : html`<p>${s.connected ? "Your Stripe account is connected, but Stripe's set-up is not finished yet." : 'Connect your Stripe account to be paid directly. Stripe asks for your details on its own pages, then brings you back here.'}</p>
            <div><button class="btn primary" type="button" ?disabled=${this.busy} @click=${() => void this.onboard()}>${this.busy ? 'Opening Stripe…' : s.connected ? "Finish Stripe's set-up" : 'Connect your Stripe account'}</button></div>`}
      ${this.message ? html`<p class="error-text on" role="alert">${this.message}</p>` : nothing}
    </div>`;
  }
}
customElements.get('fl-payment-account') || customElements.define('fl-payment-account', FlPaymentAccount);
