import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { getCredits } from '../../data/voice';
import { notEnabled, plural, voiceMessage, voiceStyles } from './voice-styles';
import './voice-studio';
import './voice-library';
import './voice-credits';

export const VOICE_TABS = [
  ['studio', 'Studio', ''],
  ['library', 'Library', '/library'],
  ['credits', 'Credits', '/credits'],
] as const;

/**
 * `<fl-voice tab>` at `/voice`, `/voice/library` and `/voice/credits` (docs/workspace.md, "Voice"): the tabs
 * and the balance, which every answer that changes it updates (`fl-voice-balance`).
 */
export class FlVoice extends LitElement {
  static override styles = [
    tokens,
    controls,
    voiceStyles,
    css`
      :host { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
      .top { display: flex; justify-content: space-between; align-items: baseline; gap: 0.5rem 1rem; flex-wrap: wrap; margin-bottom: 0.75rem; }
      nav.tabs { display: flex; gap: 0.25rem; border-bottom: 1px solid var(--_border); margin-bottom: 1rem; overflow-x: auto; }
      nav.tabs a { padding: 0.6rem 0.8rem; color: var(--_text); text-decoration: none; border-bottom: 3px solid transparent; white-space: nowrap; }
      nav.tabs a[aria-current='page'] { border-bottom-color: var(--_primary); font-weight: 600; }
    `,
  ];
  static override properties = { api: { attribute: false }, base: {}, tab: {}, balance: { state: true }, error: { state: true } };
  api!: Api;
  base = '';
  tab = 'studio';
  balance: number | null = null;
  error: string | null = null;
  private readonly onBalance = (e: Event) => void (this.balance = (e as CustomEvent<number>).detail);

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('fl-voice-balance', this.onBalance);
    void getCredits(this.api).then(
      (r) => (this.balance ??= r.data.balance),
      // Only a refusal of voice itself blocks the screen; other failures show where each tab loads.
      (e) => void (notEnabled(e) && (this.error = voiceMessage(e))),
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('fl-voice-balance', this.onBalance);
  }

  private renderTab() {
    if (this.tab === 'library') return html`<fl-voice-library .api=${this.api} base=${this.base}></fl-voice-library>`;
    if (this.tab === 'credits') return html`<fl-voice-credits .api=${this.api} base=${this.base}></fl-voice-credits>`;
    return html`<fl-voice-studio .api=${this.api} base=${this.base}></fl-voice-studio>`;
  }

  override render() {
    return html`<div class="top">
        <h1>Voice</h1>
        ${this.balance !== null ? html`<p class="meta" aria-live="polite">Balance: <strong>${plural(this.balance, 'credit')}</strong></p>` : nothing}
      </div>
      <nav class="tabs" aria-label="Voice">
        ${VOICE_TABS.map(([id, label, path]) => html`<a href="${this.base}/voice${path}" aria-current=${this.tab === id ? 'page' : nothing}>${label}</a>`)}
      </nav>
      ${this.error ? html`<p class="notice" role="alert">${this.error}</p>` : this.renderTab()}`;
  }
}
customElements.get('fl-voice') || customElements.define('fl-voice', FlVoice);
