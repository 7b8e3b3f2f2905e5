import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { listGenerations, type Generation } from '../../data/voice';
import { generationView } from './generation-view';
import { plural, voiceMessage, voiceStyles } from './voice-styles';
import './clip-actions';

const PER_PAGE = 10;
const SEARCH_DELAY_MS = 300;

/**
 * `<fl-voice-library>` at `/voice/library` (docs/workspace.md, "Voice"): every clip, newest first, searched by
 * title, words or voice (`GET /voice/generations?search=`), each to play, download, retake or delete.
 */
export class FlVoiceLibrary extends LitElement {
  static override styles = [
    tokens,
    controls,
    voiceStyles,
    css`
      form.search { display: grid; grid-template-columns: 1fr auto; gap: 0.5rem; align-items: end; }
      .pager { display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
    `,
  ];
  static override properties = { api: { attribute: false }, base: {}, items: { state: true }, total: { state: true }, page: { state: true }, search: { state: true }, error: { state: true }, notice: { state: true } };
  api!: Api;
  base = '';
  items: Generation[] | null = null;
  total = 0;
  page = 1;
  search = '';
  error: string | null = null;
  notice: string | null = null;
  noticeIsError = false;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private async load() {
    const seq = ++this.seq;
    try {
      const res = await listGenerations(this.api, { search: this.search.trim(), page: this.page, per_page: PER_PAGE });
      if (seq !== this.seq) return;
      this.items = res.data;
      this.total = res.meta.total;
      this.error = null;
    } catch (e) {
      if (seq === this.seq) this.error = voiceMessage(e);
    }
  }

  private onSearchInput(e: Event) {
    this.search = (e.target as HTMLInputElement).value;
    this.page = 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), SEARCH_DELAY_MS);
  }

  private onSearch(e: Event) {
    e.preventDefault();
    clearTimeout(this.timer);
    this.page = 1;
    void this.load();
  }

  private go(page: number) {
    this.page = page;
    void this.load().then(() => this.renderRoot.querySelector<HTMLElement>('#list-h')?.focus());
  }

  private onRemoved(e: CustomEvent<{ id: string; gone: boolean; message?: string }>) {
    this.items = (this.items ?? []).filter((g) => g.id !== e.detail.id);
    this.total = Math.max(0, this.total - 1);
    this.noticeIsError = e.detail.gone;
    this.notice = e.detail.gone ? (e.detail.message ?? null) : 'Clip deleted.';
  }

  private onReplaced(e: CustomEvent<{ before: string; generation: Generation }>) {
    const g = e.detail.generation;
    // A free retake keeps the id (the clip changes in place); a charged one is a new clip, newest first.
    this.items = g.id === e.detail.before ? (this.items ?? []).map((x) => (x.id === g.id ? g : x)) : [g, ...(this.items ?? [])];
    if (g.id !== e.detail.before) this.total += 1;
  }

  private renderList() {
    if (this.error) return html`<div role="alert"><p class="error-text on">${this.error}</p><button class="btn" type="button" @click=${() => void this.load()}>Retry</button></div>`;
    if (this.items === null) return html`<p class="muted" role="status">Loading…</p>`;
    if (this.items.length === 0) {
      return this.search.trim()
        ? html`<p class="muted">No clip matches “${this.search.trim()}”.</p>`
        : html`<p class="muted">No clips yet. <a href="${this.base}/voice">Make one in the studio.</a></p>`;
    }
    const pages = Math.max(1, Math.ceil(this.total / PER_PAGE));
    return html`<div @fl-clip-removed=${this.onRemoved} @fl-clip-replaced=${this.onReplaced}>
        ${this.items.map((g) => generationView(g, html`<fl-clip-actions .api=${this.api} .generation=${g} deletable></fl-clip-actions>`))}
      </div>
      ${pages > 1
        ? html`<nav class="pager" aria-label="Library pages">
            <button class="btn small" type="button" ?disabled=${this.page <= 1} @click=${() => this.go(this.page - 1)}>Previous</button>
            <span class="meta">Page ${this.page} of ${pages}</span>
            <button class="btn small" type="button" ?disabled=${this.page >= pages} @click=${() => this.go(this.page + 1)}>Next</button>
          </nav>`
        : nothing}`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="list-h">
      <h2 id="list-h" tabindex="-1">Library${this.items ? html` <span class="meta">(${plural(this.total, 'clip')})</span>` : nothing}</h2>
      <form class="search" role="search" @submit=${this.onSearch}>
        <label class="field">Search clips<input type="search" name="search" .value=${this.search} placeholder="Title, words or voice" @input=${this.onSearchInput} /></label>
        <button class="btn" type="submit">Search</button>
      </form>
      <p class=${this.noticeIsError ? 'error-text on' : 'ok-text'} role="status">${this.notice ?? ''}</p>
      ${this.renderList()}
    </section>`;
  }
}
customElements.get('fl-voice-library') || customElements.define('fl-voice-library', FlVoiceLibrary);
