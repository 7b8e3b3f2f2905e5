import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { getCredits, type CreditEntry } from '../../data/voice';
import { plural, voiceMessage, voiceStyles, when } from './voice-styles';

const KIND: Record<CreditEntry['kind'], string> = { purchase: 'Purchase', spend: 'Charge for a clip', credit_back: 'Credit-back of a failed clip' };

/**
 * `<fl-voice-credits>` at `/voice/credits` (docs/workspace.md, "Voice"): the balance and the ledger,
 * newest first (`GET /voice/credits`): purchases, each clip's charge, and what failed clips gave back.
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
      .pager { display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
    `,
  ];
  static override properties = { api: { attribute: false }, base: {}, balance: { state: true }, entries: { state: true }, total: { state: true }, page: { state: true }, error: { state: true } };
  api!: Api;
  base = '';
  balance: number | null = null;
  entries: CreditEntry[] | null = null;
  total = 0;
  page = 1;
  error: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const res = await getCredits(this.api, this.page);
      this.balance = res.data.balance;
      this.entries = res.data.entries;
      this.total = res.meta.total;
      this.error = null;
      this.dispatchEvent(new CustomEvent('fl-voice-balance', { detail: this.balance, bubbles: true, composed: true }));
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
        <p class="meta">A clip costs 0.4 credits per spoken character, rounded up once; a failed clip is given back. Credits are added by
          whoever runs this server: ask them for more.</p>
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
