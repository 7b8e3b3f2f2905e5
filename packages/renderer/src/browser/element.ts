import { ApiError, PublicApi } from './api.js';
import { h } from './dom.js';
import { FormView } from './form-view.js';
import { screen } from './screens.js';
import { applyTheme, themeSheet } from './theme.js';
import { emptyPreview, paintPreview } from './preview.js';
import type { PublicForm } from './types.js';

/** Where the renderer's files are: this module is `<assets>/renderer/src/browser/element.js`. */
const ASSETS = new URL('../../../', import.meta.url);

/**
 * `<formloom-form slug="..." base-url="...">`: a published form in a shadow root (docs/respondents.md).
 * `base-url` is where Formloom is mounted (default: where this script came from), `api-url` overrides
 * `<base-url>/api/v1`. With `mode="popup"` the element is a button that opens the form in a dialog.
 */
export class FormloomForm extends HTMLElement {
  static observedAttributes = ['slug', 'preview-at'];
  private started = false;
  private previewed: PublicForm | null = null;
  private previewParts: { shadow: ShadowRoot; box: HTMLElement; base: CSSStyleSheet[] } | null = null;

  /** With the `preview` attribute: the form to show (a public view), painted again each time it is set. */
  get previewForm(): PublicForm | null {
    return this.previewed;
  }
  set previewForm(form: PublicForm | null) {
    this.previewed = form;
    this.paint();
  }

  attributeChangedCallback(name: string): void {
    if (name === 'preview-at') this.paint();
  }

  private paint(): void {
    const p = this.previewParts;
    if (p && this.previewed) paintPreview(this, p.shadow, p.box, p.base, this.previewed, this.getAttribute('preview-at'));
  }

  connectedCallback(): void {
    if (this.started) return;
    this.started = true;
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.append(h('link', { rel: 'stylesheet', href: new URL('formloom.css', ASSETS).href }));
    const box = h('div', { class: 'fl-root', 'aria-live': 'polite', 'aria-busy': 'true' }, h('p', { class: 'fl-loading' }, 'Loading…'));
    if (this.hasAttribute('preview')) {
      box.replaceChildren(emptyPreview());
      shadow.append(box);
      this.previewParts = { shadow, box, base: [...shadow.adoptedStyleSheets] };
      return this.paint();
    }
    if (this.getAttribute('mode') === 'popup') {
      const dialog = h('dialog', { class: 'fl-dialog', 'aria-label': 'Form' }, h('form', { method: 'dialog', class: 'fl-close' }, h('button', { class: 'fl-arrow', 'aria-label': 'Close' }, '✕')), box);
      const open = h('button', { type: 'button', class: 'fl-button fl-open', part: 'button' }, this.getAttribute('button-text') || 'Open form');
      let loaded = false;
      open.addEventListener('click', () => {
        dialog.showModal();
        if (!loaded) void this.load(shadow, box);
        loaded = true;
      });
      shadow.append(open, dialog);
      this.addEventListener('formloom:submit', () => setTimeout(() => dialog.close(), 3000));
      return;
    }
    shadow.append(box);
    void this.load(shadow, box);
  }

  private apiUrl(): string {
    const explicit = this.getAttribute('api-url');
    if (explicit) return new URL(explicit, document.baseURI).href;
    const base = this.getAttribute('base-url') || new URL('../', ASSETS).href.replace(/\/formloom\/?$/, '/');
    return `${base.replace(/\/+$/, '')}/api/v1`;
  }

  private async load(shadow: ShadowRoot, box: HTMLElement): Promise<void> {
    const api = new PublicApi(this.apiUrl());
    const slug = this.getAttribute('slug') ?? '';
    try {
      const form = await api.form(slug);
      applyTheme(this, form.theme);
      const sheet = themeSheet(form.theme);
      if (sheet) shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
      box.setAttribute('aria-busy', 'false');
      new FormView(box, this, api, form, location.search).start();
      // For hosts' own measurements and bench/renderer.js: the first screen is in the DOM.
      performance.mark('formloom:first-render');
    } catch (e) {
      box.setAttribute('aria-busy', 'false');
      const err = e as ApiError;
      const retry = h('button', { type: 'button', class: 'fl-button', onclick: () => void this.load(shadow, box) }, 'Retry');
      box.replaceChildren(
        err.status === 404
          ? screen('This form is not available', 'It may have been unpublished or the link may be wrong.')
          : screen('The form could not be loaded', err.offline ? 'The connection was lost.' : err.message, retry),
      );
    }
  }
}
