import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { publicSnapshot } from '../../../../core/src/forms/public-view.js';
import { THEME_FIELDS } from '../../../../core/src/domain/form-fields.js';
import type { Form } from '../../data/forms';

type PreviewElement = HTMLElement & { previewForm: unknown };

/** The public view a respondent's page would be given for this draft (the server's own allow-list). */
export function previewOf(form: Form, themeExtras: Record<string, unknown> = {}) {
  const f = form as unknown as Record<string, unknown>;
  const theme: Record<string, unknown> = {};
  for (const k of THEME_FIELDS) theme[k] = f[k] ?? themeExtras[k] ?? null;
  return { form_id: form.id, slug: form.slug, version: 0, title: form.title, description: form.description, theme, snapshot: { ...publicSnapshot(f), closed: false } };
}

/**
 * `<fl-preview>`: the respondent's own `<formloom-form>` element (from @formloom/renderer, loaded from the
 * pages router's `/embed.js`) in preview mode, at phone or desktop width, repainted as the draft changes.
 * `at` names the step shown: a question id, `welcome` or `thanks`.
 */
export class FlPreview extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.5rem; align-content: start; }
      .bar { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
      .frame { margin: 0 auto; width: 100%; border: 1px solid var(--_border); border-radius: 14px; overflow: hidden; background: #0a0a0a; }
      .frame.phone { max-width: 390px; }
      /* Desktop: the element laid out at 1280 px and scaled down to the column, as a screenshot would be. */
      .frame.desktop .scaled { width: 1280px; transform-origin: 0 0; }
      .frame.desktop formloom-form { min-height: 720px; }
      formloom-form { display: block; min-height: 22rem; }
      [role='radiogroup'] { display: inline-flex; border: 1px solid var(--_border); border-radius: var(--_radius); overflow: hidden; }
      [role='radiogroup'] button { all: unset; cursor: pointer; padding: 0.35rem 0.7rem; font-size: 0.875rem; min-height: 1.6rem; }
      [role='radiogroup'] button[aria-checked='true'] { background: var(--_primary); color: var(--_primary-text); }
      [role='radiogroup'] button:focus-visible { outline: 2px solid var(--_primary); outline-offset: -2px; }
      .err { color: var(--_danger); }
    `,
  ];
  static override properties = { form: { attribute: false }, at: {}, pagesBase: { attribute: 'pages-base' }, themeExtras: { attribute: false }, width: { state: true }, failed: { state: true } };
  form: Form | null = null;
  at = '';
  pagesBase = '';
  themeExtras: Record<string, unknown> = {};
  width: 'phone' | 'desktop' = 'phone';
  failed = false;
  private resize = new ResizeObserver(() => this.fit());

  override connectedCallback() {
    super.connectedCallback();
    // The browser loads a module once, however often it is imported.
    import(`${this.pagesBase.replace(/\/+$/, '')}/embed.js`).then(
      () => this.paint(),
      () => (this.failed = true),
    );
  }

  override updated() {
    this.paint();
    const frame = this.renderRoot.querySelector('.frame');
    const inner = this.renderRoot.querySelector('.scaled');
    this.resize.disconnect();
    if (frame) this.resize.observe(frame);
    if (inner) this.resize.observe(inner);
    this.fit();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.resize.disconnect();
  }

  /** Scales the desktop layout to the column's width, and gives the frame the scaled height. */
  private fit() {
    const frame = this.renderRoot.querySelector<HTMLElement>('.frame');
    const inner = this.renderRoot.querySelector<HTMLElement>('.scaled');
    if (!frame || !inner) return;
    if (this.width === 'phone') {
      inner.style.transform = '';
      frame.style.height = '';
      return;
    }
    const scale = Math.min(1, frame.clientWidth / 1280);
    inner.style.transform = `scale(${scale})`;
    frame.style.height = `${Math.ceil(inner.offsetHeight * scale)}px`;
  }

  /**
   * Gives the element the current draft and the step to show; its own code repaints (synchronously, within the
   * same frame). The element repaints on each of the two: a new step is set while it holds no form, so that an
   * undo that changes both (the form and the question shown) paints once, not twice.
   */
  private paint() {
    const el = this.renderRoot.querySelector<PreviewElement>('formloom-form');
    if (!el || !this.form || !customElements.get('formloom-form')) return;
    if (el.getAttribute('preview-at') !== this.at) {
      el.previewForm = null;
      el.setAttribute('preview-at', this.at);
    }
    el.previewForm = previewOf(this.form, this.themeExtras);
  }

  private choose(w: 'phone' | 'desktop') {
    this.width = w;
  }

  private onKey(e: KeyboardEvent) {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    this.choose(this.width === 'phone' ? 'desktop' : 'phone');
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[aria-checked="true"]')?.focus());
  }

  override render() {
    const radio = (w: 'phone' | 'desktop', label: string) =>
      html`<button type="button" role="radio" aria-checked=${this.width === w ? 'true' : 'false'} tabindex=${this.width === w ? 0 : -1} @click=${() => this.choose(w)}>${label}</button>`;
    return html`<div class="bar"><h2 id="ph">Preview</h2>
        <div role="radiogroup" aria-label="Preview width" @keydown=${this.onKey}>${radio('phone', 'Phone')}${radio('desktop', 'Desktop')}</div></div>
      ${this.failed ? html`<p class="err" role="alert">The preview could not be loaded.</p>` : ''}
      <div class="frame ${this.width}" role="region" aria-labelledby="ph"><div class="scaled"><formloom-form preview base-url=${this.pagesBase || nothing}></formloom-form></div></div>`;
  }
}
customElements.get('fl-preview') || customElements.define('fl-preview', FlPreview);
