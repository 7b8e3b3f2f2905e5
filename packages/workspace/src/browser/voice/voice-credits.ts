import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { getCreditPrice, getCredits, startCreditCheckout, type CreditEntry } from '../../data/voice';
import { plural, voiceMessage, voiceStyles, when } from './voice-styles';

const KIND: Record<CreditEntry['kind'], string> = { purchase: 'Purchase', spend: 'Charge for a clip', credit_back: 'Credit-back of a failed clip' };

/** The packs "Buy credits" offers (any 1,000 to 1,000,000 may be bought through the API: docs/payments.md). */
const PACKS = [1_000, 5_000, 10_000, 50_000, 100_000];

/** `amount` (smallest unit) of `currency` as a person reads it, e.g. `$5.00`. */
function money(amount: number, currency: string): string {
  const upper = currency.toUpperCase();
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: upper }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: upper }).format(amount / 10 ** digits);
}

/**
 * `<fl-voice-credits>` at `/voice/credits` (docs/workspace.md, "Voice"): the balance, "Buy credits" when the server
 * takes payments (a Checkout Session at Stripe; back here with `?checkout=success` while the credits arrive), and the
 * ledger, newest first (`GET /voice/credits`): purchases, each clip's charge, and what failed clips gave back.
 */
export class FlVoiceCredits extends LitElement {
  static override styles = [
    tokens,
    controls,
    voiceStyles,
    css`
      .balance { font-size: 2rem; font-weight: 700; }
      ul.ledger { list-style: none; margin: 0; padding: 0; }
      ul.ledger li { display: flex; justify-content: space-between; gap: 0.75rem; padding: 0.6rem 0; border-top: 1px solid var(--_border); }
      ul.ledger li:first-child { border-top: 0; }
      .what { display: grid; gap: 0.15rem; min-width: 0; }
      .amount { font-variant-numeric: tabular-nums; font-weight: 600; white-space: nowrap; }
      .amount.plus { color: var(--_success); }
      form.buy { display: grid; gap: 0.6rem; max-width: 28rem; margin-top: 0.75rem; }
      form.buy h3 { margin: 0; font-size: 1rem; }
      form.buy .btn { justify-self: start; }
      .notice { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border-radius: 0.5rem; background: color-mix(in srgb, var(--_primary) 10%, transparent); border: 1px solid color-mix(in srgb, var(--_primary) 30%, transparent); }
      .pager { display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
    `,
  ];
  static override properties = {
    api: { attribute: false }, base: {}, balance: { state: true }, entries: { state: true }, total: { state: true }, page: { state: true }, error: { state: true },
    price: { state: true }, pack: { state: true }, buying: { state: true }, buyError: { state: true }, returned: { state: true },
  };
  api!: Api;
  base = '';
  balance: number | null = null;
  entries: CreditEntry[] | null = null;
  total = 0;
  page = 1;
  error: string | null = null;
  price: { available: boolean; currency: string; per_1000: number } | null = null;
  pack = PACKS[1]!;
  buying = false;
  buyError: string | null = null;
  /** Back from the checkout page: `success` (credits on their way) or `cancelled`. */
  returned: 'success' | 'cancelled' | null = null;
  private startBalance: number | null = null;
  private polls = 0;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    const state = new URLSearchParams(location.search).get('checkout');
    this.returned = state === 'success' || state === 'cancelled' ? state : null;
    void this.load();
    void getCreditPrice(this.api).then((r) => (this.price = r.data)).catch(() => (this.price = null));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.pollTimer);
  }

  /** After a paid checkout the processor's event adds the credits within seconds: look again a few times. */
  private watchForCredits() {
    this.startBalance ??= this.balance;
    if (this.returned !== 'success' || this.polls >= 15 || (this.balance ?? 0) > (this.startBalance ?? 0)) return;
    this.polls++;
    this.pollTimer = setTimeout(() => void this.load(), 2000);
  }

  private async buy(e: Event) {
    e.preventDefault();
    this.buying = true;
    this.buyError = null;
    try {
      const back = `${this.base.startsWith('/') ? this.base.replace(/\/+$/, '') : ''}/voice/credits`;
      const res = await startCreditCheckout(this.api, this.pack, back, `buy-${crypto.randomUUID()}`);
      location.assign(res.data.url);
    } catch (err) {
      this.buyError = voiceMessage(err);
      this.buying = false;
    }
  }

  private renderBuy() {
    const p = this.price;
    if (!p?.available) {
      return html`<p class="meta">A clip costs 0.4 credits per spoken character, rounded up once; a failed clip is given back. Credits are added by
        whoever runs this server: ask them for more.</p>`;
    }
    return html`<p class="meta">A clip costs 0.4 credits per spoken character, rounded up once; a failed clip is given back.</p>
      <form class="buy" @submit=${this.buy} aria-labelledby="buy-h">
        <h3 id="buy-h">Buy credits</h3>
        <label class="field">How many credits
          <select name="credits" @change=${(e: Event) => (this.pack = Number((e.target as HTMLSelectElement).value))}>
            ${PACKS.map((n) => html`<option value=${n} ?selected=${n === this.pack}>${n.toLocaleString()} credits · ${money((n / 1000) * p.per_1000, p.currency)}</option>`)}
          </select>
        </label>
        <button class="btn primary" type="submit" ?disabled=${this.buying}>${this.buying ? 'Opening the payment page…' : `Buy credits · ${money((this.pack / 1000) * p.per_1000, p.currency)}`}</button>
        <p class="meta">You pay on Stripe's secure page and come back here; the credits are added as soon as the payment is confirmed.</p>
        ${this.buyError ? html`<p class="error-text on" role="alert">${this.buyError}</p>` : nothing}
      </form>`;
  }

  private renderReturned() {
    if (this.returned === 'cancelled') return html`<p class="notice" role="status">The payment was cancelled: nothing was charged.</p>`;
    if (this.returned !== 'success') return nothing;
    const arrived = this.startBalance !== null && (this.balance ?? 0) > this.startBalance;
    return html`<p class="notice" role="status">${arrived ? 'Thank you: your credits were added.' : 'Thank you: the payment went through. Your credits are added as soon as Stripe confirms it, usually within a few seconds.'}</p>`;
  }

  private async load() {
    try {
      const res = await getCredits(this.api, this.page);
      this.balance = res.data.balance;
      this.entries = res.data.entries;
      this.total = res.meta.total;
      this.error = null;
      this.dispatchEvent(new CustomEvent('fl-voice-balance', { detail: this.balance, bubbles: true, composed: true }));
      this.watchForCredits();
    } catch (e) {
      this.error = voiceMessage(e);
    }
  }

  private go(page: number) {
    this.page = page;
    void this.load().then(() => this.renderRoot.querySelector<HTMLElement>('#ledger-h')?.focus());
  }

  override render() {
    if (this.error) return html`<section class="card" role="alert"><p class="error-text on">${this.error}</p><button class="btn" type="button" @click=${() => void this.load()}>Retry</button></section>`;
    if (this.entries === null) return html`<p class="muted" role="status">Loading…</p>`;
    const pages = Math.max(1, Math.ceil(this.total / 20));
    return html`<div class="stack">
      <section class="card" aria-labelledby="bal-h">
        <h2 id="bal-h">Balance</h2>
        <p class="balance">${plural(this.balance ?? 0, 'credit')}</p>
        ${this.renderReturned()}
        ${this.renderBuy()}
      </section>
      <section class="card" aria-labelledby="ledger-h">
        <h2 id="ledger-h" tabindex="-1">Ledger</h2>
        ${this.entries.length === 0
          ? html`<p class="muted">No entries yet.</p>`
          : html`<ul class="ledger" aria-label="Ledger entries">
              ${this.entries.map(
                (e) => html`<li>
                  <div class="what"><strong>${KIND[e.kind]}</strong><span class="meta">${when(e.created_at)}${e.generation_id ? html` · clip <code>${e.generation_id}</code>` : nothing}</span></div>
                  <span class="amount ${e.amount > 0 ? 'plus' : ''}">${e.amount > 0 ? '+' : '−'}${plural(Math.abs(e.amount), 'credit')}</span>
                </li>`,
              )}
            </ul>`}
        ${pages > 1
          ? html`<nav class="pager" aria-label="Ledger pages">
              <button class="btn small" type="button" ?disabled=${this.page <= 1} @click=${() => this.go(this.page - 1)}>Previous</button>
              <span class="meta">Page ${this.page} of ${pages}</span>
              <button class="btn small" type="button" ?disabled=${this.page >= pages} @click=${() => this.go(this.page + 1)}>Next</button>
            </nav>`
          : nothing}
      </section>
    </div>`;
  }
}
customElements.get('fl-voice-credits') || customElements.define('fl-voice-credits', FlVoiceCredits);
