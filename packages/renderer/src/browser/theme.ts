import { h } from './dom.js';
import { readableOn, readableTint } from '../contrast.js';
import { FONT_SUBSETS, fontFiles, themeLibraryFonts } from '../fonts.js';
import { MOUNT_URL } from './script-url.js';

/*
 * The form's theme inside the element (docs/respondents.md "Theme"). Values go through the CSSOM (custom
 * properties on the host, constructed style sheets in the shadow root), never into markup, so the page's
 * CSP needs no inline style and a value cannot leave its declaration.
 */
const COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const SIZE = /^(?:0|\d{1,4}(?:\.\d{1,3})?(?:px|rem|em|pt|%|vh|vw))$/;
const FONT = /^[\w\s,"'-]{1,200}$/;

const VARS: Array<[string, string, RegExp]> = [
  ['theme_color', '--fl-primary', COLOR],
  ['background_color', '--fl-bg', COLOR],
  ['text_color', '--fl-text', COLOR],
  ['answer_text_color', '--fl-answer', COLOR],
  ['placeholder_color', '--fl-placeholder', COLOR],
  ['button_color', '--fl-button', COLOR],
  ['button_text_color', '--fl-button-text', COLOR],
  ['title_color', '--fl-title', COLOR],
  ['description_color', '--fl-description', COLOR],
  ['option_text_color', '--fl-option', COLOR],
  ['indicator_bg_color', '--fl-indicator-bg', COLOR],
  ['indicator_text_color', '--fl-indicator-text', COLOR],
  ['font_family', '--fl-font', FONT],
  ['font_family_answer', '--fl-font-answer', FONT],
  ['font_family_button', '--fl-font-button', FONT],
  ['font_family_description', '--fl-font-description', FONT],
  ['font_family_option', '--fl-font-option', FONT],
  ['font_family_indicator', '--fl-font-indicator', FONT],
  ['question_font_size', '--fl-question-size', SIZE],
  ['top_logo_size', '--fl-logo-size', SIZE],
  ['corner_radius', '--fl-radius', SIZE],
];

/** Sets the theme's custom properties on the host; unset colours get readable defaults. */
export function applyTheme(host: HTMLElement, theme: Record<string, unknown>): void {
  for (const [field, prop, pattern] of VARS) {
    const v = theme[field];
    if (typeof v === 'string' && pattern.test(v)) host.style.setProperty(prop, v);
  }
  const bg = COLOR.test(String(theme.background_color)) ? String(theme.background_color) : '#0a0a0a';
  const primary = COLOR.test(String(theme.theme_color)) ? String(theme.theme_color) : '#6366f1';
  const button = COLOR.test(String(theme.button_color)) ? String(theme.button_color) : primary;
  if (!COLOR.test(String(theme.text_color))) host.style.setProperty('--fl-text', readableOn(bg, false));
  if (!COLOR.test(String(theme.button_text_color))) host.style.setProperty('--fl-button-text', readableOn(button, true));
  host.style.setProperty('--fl-bg', bg);
  // Errors are red in the form's own colours (4.5:1 on its background), not the device's light/dark setting.
  host.style.setProperty('--fl-error', readableTint('#dc2626', bg));
  host.style.colorScheme = readableOn(bg) === '#ffffff' ? 'dark' : 'light';
}

/**
 * Declares the faces of the theme's library fonts (src/fonts.ts) in the document, where a shadow root's text
 * finds them: only families the theme names, each once (the `/f/` page declared them already in its head).
 * The browser fetches a file only when text needs it, and shows the fallback meanwhile (`display: swap`).
 */
export function loadThemeFonts(theme: Record<string, unknown>, mount: string = MOUNT_URL): void {
  if (typeof FontFace === 'undefined' || !document.fonts) return;
  const declared = new Set<string>();
  document.fonts.forEach((f) => declared.add(f.family.replace(/^["']|["']$/g, '')));
  const base = `${mount.replace(/\/+$/, '')}/formloom/assets`;
  for (const font of themeLibraryFonts(theme)) {
    if (declared.has(font.family)) continue;
    for (const file of fontFiles(font)) {
      const face = new FontFace(font.family, `url(${base}/${file.name}) format("woff2")`, {
        weight: String(file.weight),
        display: 'swap',
        unicodeRange: FONT_SUBSETS[file.subset],
      });
      document.fonts.add(face);
    }
  }
}

/** The theme's free CSS (`custom_css`, `top_logo_css`, `watermark_css`), scoped to the shadow root. */
export function themeSheet(theme: Record<string, unknown>): CSSStyleSheet | null {
  const parts: string[] = [];
  if (typeof theme.top_logo_css === 'string' && theme.top_logo_css) parts.push(`.fl-top-logo{${theme.top_logo_css}}`);
  if (typeof theme.watermark_css === 'string' && theme.watermark_css) parts.push(`.fl-branding{${theme.watermark_css}}`);
  if (typeof theme.custom_css === 'string' && theme.custom_css) parts.push(theme.custom_css);
  if (!parts.length) return null;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(parts.join('\n'));
  return sheet;
}

const httpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\//i.test(v);

/** The top logo, aligned as the theme says. */
export function topLogo(theme: Record<string, unknown>, title: string): HTMLElement | null {
  if (!httpUrl(theme.top_logo_url)) return null;
  const align = ['left', 'center', 'right'].includes(String(theme.top_logo_alignment)) ? String(theme.top_logo_alignment) : 'left';
  return h('div', { class: `fl-top fl-align-${align}` }, h('img', { class: 'fl-top-logo', src: String(theme.top_logo_url), alt: `${title} logo` }));
}

/** The footer: the owner's logo and text, and ours unless `hide_branding`. */
export function footer(theme: Record<string, unknown>, poweredBy: string): HTMLElement | null {
  const logo = httpUrl(theme.branding_logo_url) ? h('img', { class: 'fl-brand-logo', src: String(theme.branding_logo_url), alt: '' }) : null;
  const text = typeof theme.branding_footer_text === 'string' && theme.branding_footer_text ? h('span', {}, theme.branding_footer_text) : null;
  const ours = theme.hide_branding === true ? null : h('span', { class: 'fl-powered' }, poweredBy);
  if (!logo && !text && !ours) return null;
  return h('footer', { class: 'fl-branding' }, logo, text, ours);
}
