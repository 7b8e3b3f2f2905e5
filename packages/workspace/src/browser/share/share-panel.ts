import { html, nothing, css } from 'lit';
import QRCode from 'qrcode';
import { BuilderPanel } from '../builder/panel';
import { prefillLink } from './prefill-builder';

/**
 * `<fl-share-panel>`: how respondents reach the form (docs/workspace.md, "Sharing"): its link, a QR code of
 * it, copy-ready embed snippets (inline and popup, docs/respondents.md) and a prefilled link builder.
 */
export class FlSharePanel extends BuilderPanel {
  static override styles = [
    ...BuilderPanel.styles,
    css`
      .link { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
      .qr { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
      .qr img { width: 10rem; height: 10rem; background: #fff; border-radius: var(--_radius); border: 1px solid var(--_border); image-rendering: pixelated; }
      .snippet { display: grid; gap: 0.5rem; }
    `,
  ];
  static override properties = { ...BuilderPanel.properties, qr: { state: true }, copied: { state: true }, prefill: { state: true } };
  qr = '';
  copied = '';
  prefill: Record<string, string> = {};
  private qrFor = '';

  private get origin() {
    return `${location.origin}${this.pagesBase}`;
  }

  get url() {
    return `${this.origin}/f/${encodeURIComponent(this.form.slug)}`;
  }

  override willUpdate() {
    const url = prefillLink(this.url, this.prefill);
    if (url !== this.qrFor) {
      this.qrFor = url;
      void QRCode.toDataURL(url, { margin: 1, width: 320, errorCorrectionLevel: 'M' }).then((d) => (this.qr = d));
    }
  }

  private async copy(text: string, what: string) {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = `${what} copied.`;
    } catch {
      this.copied = `Select the ${what.toLowerCase()} and copy it.`;
    }
  }

  /**
   * Who lets a site show the form, in the words of where the builder runs: the self-hosted workspace (its
   * operator's setting) or a host's page (the host's `embedOrigins` option, `base` is null there).
   */
  private embedHint() {
    return this.base === null
      ? html`Only sites this app allows can show the form: ask the app's developers to add your site to the sites allowed to show forms.`
      : html`Only sites this server allows can show the form: ask whoever runs it to add your site to the sites allowed to show forms (the <code>FORMLOOM_EMBED_ORIGINS</code> setting).`;
  }

  override render() {
    const f = this.form;
    const link = prefillLink(this.url, this.prefill);
    const inline = `<script type="module" src="${this.origin}/embed.js"></script>\n<formloom-form slug="${f.slug}"></formloom-form>`;
    const popup = `<script type="module" src="${this.origin}/embed.js"></script>\n<formloom-form slug="${f.slug}" mode="popup" button-text="Open the form"></formloom-form>`;
    return html`<div class="sections" style="max-width:52rem">
      ${f.published ? nothing : html`<p class="card" role="note"><strong>Not published yet.</strong> The link and the embeds work once you publish the form.</p>`}
      <section class="card" aria-labelledby="sh-link"><h2 id="sh-link">Link</h2>
        <div class="link"><label class="field">Share this address<input type="text" readonly .value=${link} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} /></label>
          <button class="btn primary" type="button" @click=${() => void this.copy(link, 'Link')}>Copy link</button></div>
        <div class="row"><a class="btn" href=${link} target="_blank" rel="noopener">Open the form<span class="sr-only"> (new tab)</span></a></div>
        <div class="qr">${this.qr ? html`<img src=${this.qr} alt="QR code of ${link}" />` : nothing}
          ${this.qr ? html`<a class="btn" href=${this.qr} download="${f.slug}-qr.png">Download the QR code</a>` : nothing}</div>
      </section>
      <section class="card snippet" aria-labelledby="sh-embed"><h2 id="sh-embed">Embed in a page</h2>
        <h3 id="sh-inline">Inline</h3><pre aria-labelledby="sh-inline">${inline}</pre>
        <div><button class="btn small" type="button" @click=${() => void this.copy(inline, 'Inline snippet')}>Copy inline snippet</button></div>
        <h3 id="sh-popup">Popup button</h3><pre aria-labelledby="sh-popup">${popup}</pre>
        <div><button class="btn small" type="button" @click=${() => void this.copy(popup, 'Popup snippet')}>Copy popup snippet</button></div>
        <p class="muted hint">${this.embedHint()}</p>
      </section>
      <section class="card" aria-labelledby="sh-prefill"><h2 id="sh-prefill">Prefilled link</h2>
        <p class="muted hint">Answers and hidden fields given in the link: the form opens with them filled in.</p>
        <fl-prefill-builder .form=${f} .values=${this.prefill} @fl-prefill=${(e: CustomEvent) => (this.prefill = e.detail)}></fl-prefill-builder>
      </section>
      <p class="sr-only" role="status" aria-live="polite">${this.copied}</p>
      ${this.copied ? html`<p class="muted" aria-hidden="true">${this.copied}</p>` : nothing}
    </div>`;
  }
}
customElements.get('fl-share-panel') || customElements.define('fl-share-panel', FlSharePanel);
