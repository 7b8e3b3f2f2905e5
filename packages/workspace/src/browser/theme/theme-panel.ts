import { html, css, nothing } from 'lit';
import { BuilderPanel } from '../builder/panel';
import { checkField, selectField, textField } from '../controls/fields';
import { updateTheme } from '../../data/theme';
import { COLORS, FONTS, FONT_STACKS, FONT, HEX, SIZE } from './theme-fields';
import { LIBRARY_FONTS, fontStack } from '../../../../renderer/src/fonts.js';
import { declareLibraryFaces, fontLibrary } from './font-library';
import { THEME_PRESETS, currentPreset, presetPatch } from './presets';
import '../builder/preview-pane';
import './logo-field';

/**
 * `<fl-theme-panel>`: every theme field (docs/workspace.md, "Theme"): presets, colours, the font library, corners,
 * sizes, logos (uploaded or by address), branding,
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
      .presets { display: grid; gap: 0.6rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 8.5rem), 1fr)); }
      .preset { all: unset; box-sizing: border-box; cursor: pointer; display: grid; gap: 0.35rem; padding: 0.7rem; border: 2px solid var(--_border); border-radius: var(--_radius); min-height: 5.5rem; }
      .preset:focus-visible { outline: 3px solid var(--_primary); outline-offset: 2px; }
      .preset[aria-pressed='true'] { border-color: var(--_primary); box-shadow: 0 0 0 1px var(--_primary); }
      .preset .pname { font-size: 1.05rem; font-weight: 700; }
      .preset .pbtn { justify-self: start; font-size: 0.8rem; padding: 0.2rem 0.6rem; font-weight: 600; }
      .preset .ptext { font-size: 0.8rem; }
      .fonts-grid { display: grid; gap: 0.4rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 10.5rem), 1fr)); min-width: 0; }
      .fonts-grid legend { margin-bottom: 0.25rem; }
      .font { display: grid; grid-template-columns: auto minmax(0, 1fr); column-gap: 0.5rem; align-items: center; padding: 0.45rem 0.6rem; border: 1px solid var(--_border); border-radius: var(--_radius); cursor: pointer; }
      .font.on { border-color: var(--_primary); box-shadow: 0 0 0 1px var(--_primary); }
      .font-name { font-size: 1.05rem; line-height: 1.3; overflow-wrap: break-word; min-width: 0; }
      .font-note { grid-column: 2; font-size: 0.75rem; color: var(--_muted); }
      /* A phone: one compact row per family, its kind on the right. */
      @media (max-width: 600px) { .fonts-grid { grid-template-columns: minmax(0, 1fr); } .font { grid-template-columns: auto minmax(0, 1fr) auto; padding: 0.35rem 0.6rem; } .font-name { grid-column: 2; grid-row: 1; } .font-note { grid-column: 3; grid-row: 1; } }
      .radius { display: flex; gap: 0.4rem 1rem; flex-wrap: wrap; }
      .radius label { white-space: nowrap; }
      /* Radios, not text fields: the shared input style (full width, padding) does not apply. */
      .radius input[type='radio'], .font input[type='radio'] { width: 1.1rem; height: 1.1rem; min-height: 0; padding: 0; margin: 0; flex: none; accent-color: var(--_primary); }
    `,
  ];
  static override properties = { ...BuilderPanel.properties, invalid: { state: true }, nav: { state: true }, navError: { state: true } };
  /** Values typed that the API would refuse, kept here until they are valid (the form keeps its last good value). */
  invalid: Record<string, string> = {};
  nav: boolean | null = null;
  navError = '';

  override connectedCallback() {
    super.connectedCallback();
    declareLibraryFaces(this.pagesBase);
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
    const stacks: Array<[string, string]> = [...FONT_STACKS, ...LIBRARY_FONTS.map((f): [string, string] => [fontStack(f), f.family])];
    const known = stacks.some(([s]) => s === v);
    return html`<div class="grid2">
      ${selectField(`Font: ${label}`, known ? v : '__custom', [...stacks, ['__custom', 'Other…']] as Array<[string, string]>, (x) => x !== '__custom' && this.setChecked(field, x || null, FONT, ''))}
      ${known ? nothing : html`<label class="field">Font names for ${label}${this.invalid[field] ? html` <span class="bad">${this.invalid[field]}</span>` : nothing}
        <input type="text" .value=${v} @input=${(e: Event) => { const t = (e.target as HTMLInputElement).value.trim(); this.setChecked(field, t || null, FONT, 'letters, digits, spaces, quotes, commas'); }} /></label>`}
    </div>`;
  }

  override render() {
    const f = this.form;
    const size = (field: 'question_font_size' | 'top_logo_size', label: string, ph: string) =>
      html`<label class="field">${label}${this.invalid[field] ? html` <span class="bad">${this.invalid[field]}</span>` : nothing}
        <input type="text" .value=${f[field] ?? ''} placeholder=${ph} @input=${(e: Event) => { const t = (e.target as HTMLInputElement).value.trim(); this.setChecked(field, t || null, SIZE, 'a size like 24px, 1.5rem or 120%'); }} /></label>`;
    const radius = f.corner_radius ?? null;
    const chosen = currentPreset(f as unknown as Record<string, unknown>);
    return html`<div class="cols"><div class="sections">
      <section class="card" aria-labelledby="t-presets"><h2 id="t-presets">Presets</h2>
        <p class="muted hint">A complete look in one click: colours, font, corners and background. Undo takes it back.</p>
        <div class="presets">${THEME_PRESETS.map((p) => html`<button type="button" class="preset" aria-pressed=${chosen === p ? 'true' : 'false'} data-preset=${p.id}
            style="background:${p.theme.background_color};color:${p.theme.text_color};font-family:${p.theme.font_family};border-radius:${p.theme.corner_radius}"
            @click=${() => this.patch(presetPatch(p) as never)}>
            <span class="pname" style="color:${p.theme.title_color}">${p.name}</span>
            <span class="ptext">Question text</span>
            <span class="pbtn" style="background:${p.theme.button_color};color:${p.theme.button_text_color};border-radius:${p.theme.corner_radius}">OK</span>
          </button>`)}</div>
      </section>
      <section class="card" aria-labelledby="t-colors"><h2 id="t-colors">Colours</h2><div class="colors">${COLORS.map((c) => this.colorField(c))}</div></section>
      <section class="card" aria-labelledby="t-fonts"><h2 id="t-fonts">Fonts</h2>
        <p class="muted hint">Served by this server with the form: respondents download only the font you choose, and never from another site.</p>
        ${fontLibrary(f.font_family ?? null, (stack) => this.patch({ font_family: stack }))}
        <details><summary>Fonts of each part</summary>${FONTS.map((x) => this.fontField(x))}</details>
        ${size('question_font_size', 'Question size', '24px')}
        <fieldset><legend>Corners</legend><div class="radius">
          ${([['0', 'Square'], ['4px', 'Slight'], ['8px', 'Rounded'], ['14px', 'Round'], ['20px', 'Very round']] as const).map(([v, l]) => html`<label class="check"><input type="radio" name="radius" .checked=${(radius ?? '8px') === v} @change=${() => this.patch({ corner_radius: v === '8px' ? null : v })} /> ${l}</label>`)}
        </div></fieldset>
      </section>
      <section class="card" aria-labelledby="t-logo"><h2 id="t-logo">Logo and branding</h2>
        <fl-logo-field label="Logo above the form" .value=${f.top_logo_url ?? null} .api=${this.store.api} form-id=${this.store.formId} @logo-change=${(e: CustomEvent<string | null>) => this.patch({ top_logo_url: e.detail })}></fl-logo-field>
        <div class="grid2">${size('top_logo_size', 'Logo height', '48px')}
          ${selectField('Logo alignment', f.top_logo_alignment ?? 'left', [['left', 'Left'], ['center', 'Centre'], ['right', 'Right']] as const, (v) => this.patch({ top_logo_alignment: v }))}</div>
        <fl-logo-field label="Logo in the footer" .value=${f.branding_logo_url ?? null} .api=${this.store.api} form-id=${this.store.formId} @logo-change=${(e: CustomEvent<string | null>) => this.patch({ branding_logo_url: e.detail })}></fl-logo-field>
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
