import { html, nothing, type TemplateResult } from 'lit';
import { FONT_SUBSETS, LIBRARY_FONTS, fontFiles, fontStack, libraryFontOf, type LibraryFont } from '../../../../renderer/src/fonts.js';

/*
 * The font library in the theme panel (docs/workspace.md "Theme"): every family of renderer/src/fonts.ts, each
 * name written in its own face. The faces are declared once per page, from the pages router's files (the same
 * self-hosted files respondents get); only the regular Latin file of each, which is all a name needs.
 */

const declared = new Set<string>();

/** Declares the regular face of every library family for the picker (once per page). */
export function declareLibraryFaces(pagesBase: string): void {
  if (typeof FontFace === 'undefined' || !document.fonts) return;
  const base = `${pagesBase.replace(/\/+$/, '')}/formloom/assets`;
  for (const font of LIBRARY_FONTS) {
    if (declared.has(font.family)) continue;
    declared.add(font.family);
    const file = fontFiles(font).find((f) => f.weight === 400 && f.subset === 'latin')!;
    document.fonts.add(new FontFace(font.family, `url(${base}/${file.name}) format("woff2")`, { weight: '400', display: 'swap', unicodeRange: FONT_SUBSETS.latin }));
  }
}

const CATEGORY: Record<LibraryFont['category'], string> = { 'sans-serif': 'Sans serif', serif: 'Serif', monospace: 'Monospace', handwriting: 'Handwriting' };

/**
 * A radio group of the families (and "Default"): arrow keys move the choice, as in any radio group. `value` is
 * the stored stack; `choose` gets the new stack (null: the default).
 */
export function fontLibrary(value: string | null, choose: (stack: string | null) => void): TemplateResult {
  const current = libraryFontOf(value);
  const isDefault = !value;
  const option = (label: string, stack: string | null, checked: boolean, family: string | null, note: string) =>
    html`<label class="font ${checked ? 'on' : ''}">
      <input type="radio" name="font-library" .checked=${checked} @change=${() => choose(stack)} />
      <span class="font-name" style=${family ? `font-family: "${family}", system-ui, sans-serif` : nothing}>${label}</span>
      <span class="font-note">${note}</span>
    </label>`;
  return html`<fieldset class="fonts-grid">
    <legend>Font of the form</legend>
    ${option('Default', null, isDefault, null, 'The device’s own')}
    ${LIBRARY_FONTS.map((f) => option(f.family, fontStack(f), current === f, f.family, CATEGORY[f.category]))}
  </fieldset>`;
}
