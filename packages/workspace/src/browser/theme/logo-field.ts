import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { uploadLogo } from '../../data/theme';
import type { Api } from '../../data/client';

/**
 * `<fl-logo-field>`: one logo of the theme (docs/workspace.md "Theme"): a preview, "Upload an image" (PNG,
 * JPEG, WebP or SVG up to 1 MB, kept by the server in its blob store), "Remove", and the web address of a logo
 * kept elsewhere. Fires `logo-change` with `detail: string | null` (the new address); the panel saves it with the
 * form, so Undo takes an upload or a removal back like any edit.
 */
export class FlLogoField extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.5rem; position: relative; }
      .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
      .preview { display: grid; place-items: center; min-width: 6rem; max-width: 100%; height: 4.5rem; padding: 0.4rem; border: 1px dashed var(--_border); border-radius: var(--_radius);
        background: repeating-conic-gradient(#8881 0% 25%, transparent 0% 50%) 50% / 16px 16px; }
      .preview img { max-height: 100%; max-width: 100%; object-fit: contain; }
      .empty { color: var(--_muted); font-size: 0.875rem; padding: 0 0.5rem; }
      .err { color: var(--_danger); font-size: 0.875rem; margin: 0; }
      input.file { position: absolute; inset: 0 auto auto 0; width: 1px !important; height: 1px; padding: 0; border: 0; opacity: 0; overflow: hidden; pointer-events: none; }
      .legend { font-weight: 600; font-size: 0.875rem; }
      details summary { cursor: pointer; font-size: 0.875rem; color: var(--_muted); }
      details[open] summary { margin-bottom: 0.4rem; }
    `,
  ];
  static override properties = {
    label: {},
    value: {},
    api: { attribute: false },
    formId: { attribute: 'form-id' },
    busy: { state: true },
    error: { state: true },
    urlError: { state: true },
  };
  label = 'Logo';
  value: string | null = null;
  api!: Api;
  formId = '';
  busy = false;
  error = '';
  urlError = '';

  private emit(url: string | null) {
    this.dispatchEvent(new CustomEvent('logo-change', { detail: url, bubbles: true, composed: true }));
  }

  private pick() {
    this.renderRoot.querySelector<HTMLInputElement>('input[type=file]')?.click();
  }

  private async upload(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    this.error = '';
    this.busy = true;
    try {
      const logo = await uploadLogo(this.api, this.formId, file);
      this.emit(logo.url);
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private removeLogo() {
    this.error = '';
    this.emit(null);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.upload')?.focus());
  }

  private typed(e: Event) {
    const t = (e.target as HTMLInputElement).value.trim();
    if (!t) {
      this.urlError = '';
      return this.emit(null);
    }
    if (!/^https?:\/\/\S+$/i.test(t)) {
      this.urlError = 'an http(s) address';
      return;
    }
    this.urlError = '';
    this.emit(t);
  }

  override render() {
    const id = 'logo-file';
    return html`<span class="legend" id="lbl">${this.label}</span>
      <div class="row">
        <div class="preview" role="img" aria-label=${this.value ? `${this.label}: preview` : `${this.label}: none`}>
          ${this.value ? html`<img src=${this.value} alt="" />` : html`<span class="empty">No logo</span>`}
        </div>
        <input id=${id} class="file" type="file" accept="image/png,image/jpeg,image/webp,image/svg+xml,.png,.jpg,.jpeg,.webp,.svg" tabindex="-1" aria-hidden="true" @change=${this.upload} />
        <button class="btn upload" type="button" aria-describedby="lbl hint" @click=${this.pick} ?disabled=${this.busy}>${this.busy ? 'Uploading…' : this.value ? 'Replace image' : 'Upload an image'}</button>
        ${this.value ? html`<button class="btn danger-outline remove" type="button" aria-describedby="lbl" @click=${this.removeLogo} ?disabled=${this.busy}>Remove</button>` : nothing}
      </div>
      <p class="muted hint" id="hint">PNG, JPEG, WebP or SVG, up to 1 MB.</p>
      ${this.error ? html`<p class="err" role="alert">${this.error}</p>` : nothing}
      <details ?open=${!!this.value && !this.value.includes('/public/logos/')}>
        <summary>Or use a web address</summary>
        <label class="field">Address of the image${this.urlError ? html` <span class="err">${this.urlError}</span>` : nothing}
          <input type="url" .value=${this.value ?? ''} placeholder="https://example.com/logo.png" @input=${this.typed} /></label>
      </details>`;
  }
}
customElements.get('fl-logo-field') || customElements.define('fl-logo-field', FlLogoField);
