import css from '../../assets/formloom.css';
import { ApiError, PublicApi } from './api.js';
import { h } from './dom.js';
import { FormView } from './form-view.js';
import { screen } from './screens.js';
import { MOUNT_URL } from './script-url.js';
import { applyTheme, loadThemeFonts, themeSheet } from './theme.js';
import { emptyPreview, paintPreview } from './preview.js';
import type { PublicForm } from './types.js';
import { isRtl, pickLanguage, translator } from './i18n/index.js';
import { loadWords } from './i18n/load.js';
import { chooseLanguage, offeredLanguages, translateForm } from './form-language.js';
import { languagePicker } from './language-picker.js';
import { handedOver } from './fuse-flow.js';
import { loadOnDemand } from './questions/on-demand-control.js';
import { needsOnDemand } from '../on-demand.js';

let shared: CSSStyleSheet | null = null;
/** The element's stylesheet, built once per page and adopted by every instance's shadow root. */
function baseSheet(): CSSStyleSheet {
  if (!shared) {
    shared = new CSSStyleSheet();
    shared.replaceSync(css);
  }
  return shared;
}

/** The published form the page itself carries (the `/f/` page inlines it), when it is this slug's. */
function inlined(el: HTMLElement, slug: string): PublicForm | null {
  const data = el.querySelector('script[type="application/json"][data-formloom-form]');
  if (!data?.textContent) return null;
  try {
    const form = JSON.parse(data.textContent) as PublicForm;
    return form.slug === slug ? form : null;
  } catch {
    return null;
  }
}

/**
 * `<formloom-form slug="..." base-url="...">`: a published form in a shadow root (docs/respondents.md).
 * `base-url` is where Formloom is mounted (default: where this script came from), `api-url` overrides
 * `<base-url>/api/v1`. With `mode="popup"` the element is a button that opens the form in a dialog.
 * `standalone` (set by the `/f/` page) makes the form the page: it fills the viewport and its screens are the
 * page's `<h1>`; embedded, its headings stay below the host page's own.
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

  /** The language the respondent picked on the page (docs/languages.md); null until they do. */
  private chosenLanguage: string | null = null;

  connectedCallback(): void {
    if (this.started) return;
    this.started = true;
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = [baseSheet()];
    // Transparent until the theme is known: a light host page never flashes dark while the form loads.
    // Before the form (and its `language`) is known: the browser's language.
    // English until the form (and its language's words) arrive: "Loading…" shows for a moment at most.
    const t = translator(null, null);
    const box = h('div', { class: 'fl-root fl-pending', 'aria-live': 'polite', 'aria-busy': 'true' }, h('p', { class: 'fl-loading' }, t('loading')));
    if (this.hasAttribute('preview')) {
      box.classList.remove('fl-pending');
      box.replaceChildren(emptyPreview());
      shadow.append(box);
      this.previewParts = { shadow, box, base: [...shadow.adoptedStyleSheets] };
      return this.paint();
    }
    if (this.getAttribute('mode') === 'popup') {
      const dialog = h('dialog', { class: 'fl-dialog', 'aria-label': this.getAttribute('button-text') || t('form') }, h('form', { method: 'dialog', class: 'fl-close' }, h('button', { class: 'fl-arrow', 'aria-label': t('close') }, '✕')), box);
      const open = h('button', { type: 'button', class: 'fl-button fl-open', part: 'button' }, this.getAttribute('button-text') || t('open_form'));
      let loaded = false;
      open.addEventListener('click', () => {
        dialog.showModal();
        if (!loaded) void this.load(shadow, box);
        loaded = true;
      });
      // The dialog stays open on the result screen (quiz results, thank-you): the respondent closes it.
      shadow.append(open, dialog);
      // Handed over by a Fuse in an open popup (fuse-flow.ts): the Fuse form's popup opens as that one closed.
      if (handedOver(this)) open.click();
      return;
    }
    shadow.append(box);
    void this.load(shadow, box);
  }

  /** Where the pages router is mounted: `base-url`, else where this script came from. */
  private mountUrl(): string {
    return this.getAttribute('base-url') || MOUNT_URL;
  }

  private apiUrl(): string {
    const explicit = this.getAttribute('api-url');
    if (explicit) return new URL(explicit, document.baseURI).href;
    return `${this.mountUrl().replace(/\/+$/, '')}/api/v1`;
  }

  private async load(shadow: ShadowRoot, box: HTMLElement): Promise<void> {
    const api = new PublicApi(this.apiUrl());
    const slug = this.getAttribute('slug') ?? '';
    try {
      const loaded = inlined(this, slug) ?? (await api.form(slug));
      // A payment or booking question's code, fetched meanwhile (questions/on-demand-control.ts); a failure shows there.
      if (needsOnDemand(loaded.snapshot.questions)) loadOnDemand(this.mountUrl()).catch(() => undefined);
      // The form's language: the picker's choice, else ?lang=, the browser's languages, the default (docs/languages.md).
      const chosen = this.chosenLanguage ?? chooseLanguage(loaded.snapshot, location.search, navigator.languages ?? []);
      const form = translateForm(loaded, chosen);
      const lang = pickLanguage(chosen ?? form.snapshot.language, navigator.languages ?? []);
      const t = translator(await loadWords(this, lang, this.mountUrl()), form.snapshot.strings);
      box.lang = chosen ?? lang;
      box.dir = isRtl(lang) ? 'rtl' : 'ltr';
      applyTheme(this, form.theme);
      loadThemeFonts(form.theme, this.mountUrl());
      const sheet = themeSheet(form.theme);
      if (sheet) shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
      box.classList.remove('fl-pending');
      box.setAttribute('aria-busy', 'false');
      const standalone = this.hasAttribute('standalone');
      new FormView(box, this, api, form, location.search, standalone ? 1 : 2, t, standalone || this.getAttribute('mode') === 'popup' || handedOver(this)).start();
      const offered = offeredLanguages(loaded.snapshot);
      if (offered.length > 1) {
        box.prepend(
          languagePicker(offered, chosen!, t('language'), (next) => {
            this.chosenLanguage = next;
            void this.load(shadow, box);
          }),
        );
      }
      // For hosts' own measurements and bench/renderer.js: the first screen is in the DOM.
      performance.mark('formloom:first-render');
    } catch (e) {
      box.classList.remove('fl-pending');
      box.setAttribute('aria-busy', 'false');
      const err = e as ApiError;
      const lang = pickLanguage(null, navigator.languages ?? []);
      const t = translator(await loadWords(this, lang, this.mountUrl()), null);
      const retry = h('button', { type: 'button', class: 'fl-button', onclick: () => void this.load(shadow, box) }, t('retry'));
      box.replaceChildren(
        err.status === 404
          ? screen(2, t('not_available'), t('not_available_text'))
          : screen(2, t('load_failed'), err.offline ? t('connection_lost') : err.message, retry),
      );
    }
  }
}
