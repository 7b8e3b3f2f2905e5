import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { refundPayment, type ResponsePayment } from '../../data/results';
import '../controls/confirm-dialog';
import type { FlConfirm } from '../controls/confirm-dialog';

/** Digits after the point of a currency (0 for JPY); 2 for one `Intl` does not know. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** `amount` (smallest unit) of `currency` as a person reads it, e.g. `€30.00`. */
export function money(amount: number, currency: string): string {
  const upper = currency.toUpperCase();
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: upper }).format(amount / 10 ** currencyDigits(upper));
  } catch {
    return `${amount} ${upper}`;
  }
}

/**
 * What the owner typed as an amount in the smallest unit, or why it cannot be refunded. Takes `7.5`, `7.50` and
 * `7,50`; at most the currency's digits after the point; above zero; at most what is left.
 */
export function parseRefund(text: string, currency: string, left: number): { amount: number } | { error: string } {
  const digits = currencyDigits(currency);
  const t = text.trim().replace(',', '.');
  const example = (left / 10 ** digits).toFixed(digits);
  if (!/^\d+(\.\d+)?$/.test(t)) return { error: `Enter an amount as a number, such as ${example}.` };
  const [, decimals = ''] = t.split('.');
  if (decimals.length > digits) return { error: digits ? `Use at most ${digits} digits after the point.` : 'This currency has no cents: enter a whole amount.' };
  const amount = Math.round(Number(t) * 10 ** digits);
  if (amount <= 0) return { error: 'Enter an amount above zero.' };
  if (amount > left) return { error: `At most ${money(left, currency)} is left to refund.` };
  return { amount };
}

/** A key that stays the same for retries of one refund, so it is made once (docs/payments.md, "Refunds"). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `refund-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * `<fl-payment-refund>`: refunding a response's payment, whole or in part, from its detail in the results
 * (docs/payments.md, "Refunds"). "Refund" opens an amount field (what is left, to start with), checked as typed;
 * the refund is confirmed in a dialog and sent with an idempotency key kept for the retries of that amount, so a
 * click sent twice or retried after a lost answer refunds once. Fires `fl-refunded` with the payment after it.
 */
export class FlPaymentRefund extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: block; margin-top: 0.4rem; }
      form { display: grid; gap: 0.5rem; padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_bg); }
      .error-text { font-size: 0.875rem; margin: 0; }
      .hint { font-size: 0.8125rem; font-weight: 400; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    formId: { attribute: 'form-id' },
    responseId: { attribute: 'response-id' },
    payment: { attribute: false },
    open: { state: true },
    text: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  api!: Api;
  formId = '';
  responseId = '';
  payment!: ResponsePayment;
  open = false;
  text = '';
  error = '';
  busy = false;
  /** The idempotency key of the refund being tried, with its amount: a new amount is a new refund. */
  private attempt: { amount: number; key: string } | null = null;

  private get left() {
    return this.payment.amount - this.payment.amount_refunded;
  }

  private show() {
    const digits = currencyDigits(this.payment.currency);
    this.text = (this.left / 10 ** digits).toFixed(digits);
    this.error = '';
    this.open = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector('input')?.focus());
  }

  private async submit(e: Event) {
    e.preventDefault();
    const parsed = parseRefund(this.text, this.payment.currency, this.left);
    if ('error' in parsed) {
      this.error = parsed.error;
      this.renderRoot.querySelector('input')?.focus();
      return;
    }
    const what = money(parsed.amount, this.payment.currency);
    const whole = parsed.amount === this.left;
    const ok = await (this.renderRoot.querySelector('fl-confirm') as FlConfirm).ask({
      heading: `Refund ${what}?`,
      body: `The money goes back to the card or account the respondent paid with${whole ? '' : `; ${money(this.left - parsed.amount, this.payment.currency)} stays paid`}. A refund cannot be undone.`,
      confirmText: `Refund ${what}`,
      danger: true,
    });
    if (!ok) return;
    if (this.attempt?.amount !== parsed.amount) this.attempt = { amount: parsed.amount, key: newKey() };
    this.busy = true;
    this.error = '';
    try {
      const after = await refundPayment(this.api, this.formId, this.responseId, this.payment.id, parsed.amount, this.attempt.key);
      this.attempt = null;
      this.open = false;
      this.dispatchEvent(new CustomEvent('fl-refunded', { detail: { payment: after, refunded: what }, bubbles: true, composed: true }));
    } catch (err) {
      // The key is kept: trying again with this amount cannot refund twice.
      this.error = `${(err as Error).message} Try again: the same refund is never made twice.`;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const p = this.payment;
    if (!p || this.left <= 0) return nothing;
    if (!this.open) {
      return html`<button class="btn small" type="button" @click=${() => this.show()}>Refund…</button><fl-confirm></fl-confirm>`;
    }
    const parsed = parseRefund(this.text, p.currency, this.left);
    const label = 'amount' in parsed ? `Refund ${money(parsed.amount, p.currency)}` : 'Refund';
    return html`<form @submit=${(e: Event) => void this.submit(e)} novalidate>
        <label class="field"
          >Amount to refund (${p.currency.toUpperCase()})
          <span class="hint muted" id="hint">Up to ${money(this.left, p.currency)}; less for a partial refund.</span>
          <input
            inputmode="decimal"
            autocomplete="off"
            .value=${this.text}
            aria-describedby="hint${this.error ? ' err' : ''}"
            aria-invalid=${this.error ? 'true' : 'false'}
            @input=${(e: Event) => {
              this.text = (e.target as HTMLInputElement).value;
              this.error = '';
            }}
        /></label>
        ${this.error ? html`<p class="error-text" id="err" role="alert">${this.error}</p>` : nothing}
        <div class="row">
          <button class="btn small danger solid" type="submit" ?disabled=${this.busy}>${label}</button>
          <button class="btn small" type="button" ?disabled=${this.busy} @click=${() => (this.open = false)}>Cancel</button>
        </div>
      </form>
      <fl-confirm></fl-confirm>`;
  }
}
customElements.get('fl-payment-refund') || customElements.define('fl-payment-refund', FlPaymentRefund);
