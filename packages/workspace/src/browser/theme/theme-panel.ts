import { html, css, nothing } from 'lit';
import { BuilderPanel } from '../builder/panel';
import { checkField, selectField, textField } from '../controls/fields';
import { updateTheme } from '../../data/theme';
import { COLORS, FONTS, FONT_STACKS, FONT, HEX, SIZE } from './theme-fields';
import '../builder/preview-pane';

/**
 * `<fl-theme-panel>`: every theme field (docs/workspace.md, "Theme"): colours, fonts, sizes, logos, branding,
 * custom CSS, with the respondent's own element as the live preview beside it. Fields save with the form;
 * `show_question_nav`, which only the theme endpoint takes, is saved there.
 */
export class FlThemePanel extends BuilderPanel {
  static override styles = [
    ...BuilderPanel.styles,
    css`
      .color { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0.5rem; align-items: end; }
      .colors { display: grid; gap: 0.6rem; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
      .bad { color: var(--_danger); font-size: 0.8125rem; font-weight: 400; }
      textarea.code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.875rem; min-height: 8rem; }
    `,
  ];
  static override properties = { ...BuilderPanel.properties, invalid: { state: true }, nav: { state: true }, navError: { state: true } };
  /** Values typed that the API would refuse, kept here until they are valid (the form keeps its last good value). */
  invalid: Record<string, string> = {};
  nav: boolean | null = null;
  navError = '';

  override connectedCallback() {
    super.connectedCallback();
    void this.store.api.client.GET('/forms/{id}/theme', { params: { path: { id: this.store.formId } } }).then((r) => {
      if (r.data) this.nav = (r.data as { show_question_nav?: boolean }).show_question_nav === true;
    });
  }

  /** Keeps a typed value that is not valid yet out of the form, and says why. */
  private setChecked(field: string, value: string | null, valid: RegExp, message: string) {
    if (value === null || valid.test(value)) {
      const { [field]: _gone, ...rest } = this.invalid;
      this.invalid = rest;
      this.patch({ [field]: value } as never);
    } else {
      this.invalid = { ...this.invalid, [field]: message };
    }
  }

  private async setNav(on: boolean) {
    this.nav = on;
    try {
      if (!(await this.store.flush())) throw new Error(`Your last changes are not saved yet (${this.store.error}): try again once they are.`);
      await updateTheme(this.store.api, this.store.formId, { show_question_nav: on }, this.store.etag);
      await this.store.reload();
      this.navError = '';
    } catch (e) {
      this.navError = (e as Error).message;
    }
  }

  private colorField([field, label, fallback]: [string, string, string]) {
    const f = this.form as unknown as Record<string, string | null>;
    const v = f[field];
    const id = `c-${field}`;
    return html`<div class="color">
      <input type="color" aria-label="${label} colour picker" .value=${v && HEX.test(v) ? v : fallback} @input=${(e: Event) => this.setChecked(field, (e.target as HTMLInputElement).value, HEX, '')} />
      <label class="field" for=${id}>${label}${this.invalid[field] ? html` <span class="bad">${this.invalid[field]}</span>` : nothing}
        <input id=${id} type="text" .value=${v ?? ''} placeholder="Default" spellcheck="false"
          @input=${(e: Event) => { const t = (e.target as HTMLInputElement).value.trim(); this.setChecked(field, t || null, HEX, 'a colour like #336699'); }} /></label>
    </div>`;
  }

  private fontField([field, label]: [string, string]) {
    const v = (this.form as unknown as Record<string, string | null>)[field] ?? '';
    const known = FONT_STACKS.some(([s]) => s === v);
    return html`<div class="grid2">
      ${selectField(`Font: ${label}`, known ? v : '__custom', [...FONT_STACKS, ['__custom', 'Other…']] as Array<[string, string]>, (x) => x !== '__custom' && this.setChecked(field, x || null, FONT, ''))}
      ${known ? nothing : html`<label class="field">Font names for ${label}${this.invalid[field] ? html` <span class="bad">${this.invalid[field]}</span>` : nothing}
        <input type="text" .value=${v} @input=${(e: Event) => { const t = (e.target as HTMLInputElement).value.trim(); this.setChecked(field, t || null, FONT, 'letters, digits, spaces, quotes, commas'); }} /></label>`}
    </div>`;
  }

  override render() {
    const f = this.form;
    const size = (field: 'question_font_size' | 'top_logo_size', label: string, ph: string) =>
      html`<label class="field">${label}${this.invalid[field] ? html` <span class="bad">${this.invalid[field]}</span>` : nothing}
        <input type="text" .value=${f[field] ?? ''} placeholder=${ph} @input=${(e: Event) => { const t = (e.target as HTMLInputElement).value.trim(); this.setChecked(field, t || null, SIZE, 'a size like 24px, 1.5rem or 120%'); }} /></label>`;
    const url = (field: 'branding_logo_url' | 'top_logo_url', label: string) =>
      html`<label class="field">${label}${this.invalid[field] ? html` <span class="bad">${this.invalid[field]}</span>` : nothing}
        <input type="url" .value=${f[field] ?? ''} placeholder="https://example.com/logo.png" @input=${(e: Event) => { const t = (e.target as HTMLInputElement).value.trim(); this.setChecked(field, t || null, /^https?:\/\/\S+$/i, 'an http(s) address'); }} /></label>`;
    return html`<div class="cols"><div class="sections">
      <section class="card" aria-labelledby="t-colors"><h2 id="t-colors">Colours</h2><div class="colors">${COLORS.map((c) => this.colorField(c))}</div></section>
      <section class="card" aria-labelledby="t-fonts"><h2 id="t-fonts">Fonts</h2>${FONTS.map((x) => this.fontField(x))}${size('question_font_size', 'Question size', '24px')}</section>
      <section class="card" aria-labelledby="t-logo"><h2 id="t-logo">Logo and branding</h2>
        ${url('top_logo_url', 'Logo above the form')}
        <div class="grid2">${size('top_logo_size', 'Logo height', '48px')}
          ${selectField('Logo alignment', f.top_logo_alignment ?? 'left', [['left', 'Left'], ['center', 'Centre'], ['right', 'Right']] as const, (v) => this.patch({ top_logo_alignment: v }))}</div>
        ${url('branding_logo_url', 'Logo in the footer')}
        ${textField('Footer text', f.branding_footer_text, (v) => this.patch({ branding_footer_text: v }))}
        ${checkField('Hide “Powered by Formloom”', f.hide_branding, (v) => this.patch({ hide_branding: v }))}
        ${checkField('Show the progress bar', f.show_progress_bar, (v) => this.patch({ show_progress_bar: v }))}
        ${this.nav === null ? nothing : checkField('Show back and next arrows', this.nav, (v) => void this.setNav(v))}
        ${this.navError ? html`<p class="error-text" role="alert">${this.navError}</p>` : nothing}
      </section>
      <section class="card" aria-labelledby="t-css"><h2 id="t-css">Custom CSS</h2>
        <p class="muted hint">Applies to the form only, not to the page around it: the form's parts have classes that start with <code>fl-</code>.</p>
        <label class="field">CSS for the whole form<textarea class="code" spellcheck="false" .value=${f.custom_css ?? ''} @input=${(e: Event) => this.patch({ custom_css: (e.target as HTMLTextAreaElement).value || null })}></textarea></label>
        <label class="field">CSS of the logo<textarea class="code" spellcheck="false" .value=${f.top_logo_css ?? ''} @input=${(e: Event) => this.patch({ top_logo_css: (e.target as HTMLTextAreaElement).value || null })}></textarea></label>
        <label class="field">CSS of the footer (watermark)<textarea class="code" spellcheck="false" .value=${f.watermark_css ?? ''} @input=${(e: Event) => this.patch({ watermark_css: (e.target as HTMLTextAreaElement).value || null })}></textarea></label>
      </section>
    </div>
    <fl-preview class="sticky" .form=${f} .themeExtras=${{ show_question_nav: this.nav }} at=${f.questions[0]?.id ?? 'welcome'} pages-base=${this.pagesBase} data-tick=${this.tick}></fl-preview></div>`;
  }
}
customElements.get('fl-theme-panel') || customElements.define('fl-theme-panel', FlThemePanel);
