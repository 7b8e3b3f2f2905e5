/*
 * The theme's font library (docs/respondents.md "Fonts"): families self-hosted from their @fontsource packages
 * (dependencies of @formloom/express, pinned exactly), served by the pages router under
 * `<mount>/formloom/assets/` with names that carry the package version, so they are cached for good. Nothing
 * is downloaded at run time. A theme names a family by its CSS font stack (`"Inter", system-ui, sans-serif`):
 * when the first name is one of these, the page declares its faces and preloads the one file the first screen
 * needs. Pure data and string functions: used by the server (the `/f/` page), the element (embeds, the
 * builder's preview) and the workspace's font picker alike.
 */

/** The version of every @fontsource package of the library (the express package pins the same). */
export const FONTSOURCE_VERSION = '5.3.0';

export interface LibraryFont {
  /** The @fontsource package name without its scope, e.g. `inter`. */
  id: string;
  /** The family name as CSS and people know it. */
  family: string;
  /** What the browser shows while the file loads, and where a glyph is missing. */
  fallback: string;
  category: 'sans-serif' | 'serif' | 'monospace' | 'handwriting';
}

const SANS = 'system-ui, "Segoe UI", Roboto, sans-serif';
const SERIF = 'Georgia, "Times New Roman", serif';

export const LIBRARY_FONTS: readonly LibraryFont[] = [
  { id: 'inter', family: 'Inter', fallback: SANS, category: 'sans-serif' },
  { id: 'roboto', family: 'Roboto', fallback: SANS, category: 'sans-serif' },
  { id: 'open-sans', family: 'Open Sans', fallback: SANS, category: 'sans-serif' },
  { id: 'lato', family: 'Lato', fallback: SANS, category: 'sans-serif' },
  { id: 'montserrat', family: 'Montserrat', fallback: SANS, category: 'sans-serif' },
  { id: 'poppins', family: 'Poppins', fallback: SANS, category: 'sans-serif' },
  { id: 'source-sans-3', family: 'Source Sans 3', fallback: SANS, category: 'sans-serif' },
  { id: 'nunito', family: 'Nunito', fallback: SANS, category: 'sans-serif' },
  { id: 'raleway', family: 'Raleway', fallback: SANS, category: 'sans-serif' },
  { id: 'work-sans', family: 'Work Sans', fallback: SANS, category: 'sans-serif' },
  { id: 'dm-sans', family: 'DM Sans', fallback: SANS, category: 'sans-serif' },
  { id: 'space-grotesk', family: 'Space Grotesk', fallback: SANS, category: 'sans-serif' },
  { id: 'merriweather', family: 'Merriweather', fallback: SERIF, category: 'serif' },
  { id: 'playfair-display', family: 'Playfair Display', fallback: SERIF, category: 'serif' },
  { id: 'lora', family: 'Lora', fallback: SERIF, category: 'serif' },
  { id: 'eb-garamond', family: 'EB Garamond', fallback: SERIF, category: 'serif' },
  { id: 'jetbrains-mono', family: 'JetBrains Mono', fallback: 'ui-monospace, Menlo, Consolas, monospace', category: 'monospace' },
  { id: 'caveat', family: 'Caveat', fallback: 'cursive', category: 'handwriting' },
  { id: 'dancing-script', family: 'Dancing Script', fallback: 'cursive', category: 'handwriting' },
];

/**
 * The weights the element uses: 400 for text, 600 for titles and buttons (which font matching serves from 700,
 * the next heavier face). Latin and Latin Extended only: with `unicode-range`, the browser fetches the second
 * file only for text that needs it.
 */
export const FONT_WEIGHTS = [400, 700] as const;
export const FONT_SUBSETS: Record<'latin' | 'latin-ext', string> = {
  latin: 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  'latin-ext':
    'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
};

/** The CSS font stack a theme stores for a library family: its name quoted, then its fallbacks. */
export const fontStack = (f: LibraryFont) => `"${f.family}", ${f.fallback}`;

/** The library family a font stack starts with, or null (a system stack, or nothing). */
export function libraryFontOf(stack: unknown): LibraryFont | null {
  if (typeof stack !== 'string') return null;
  const first = stack.split(',')[0]!.trim().replace(/^["']|["']$/g, '').toLowerCase();
  return LIBRARY_FONTS.find((f) => f.family.toLowerCase() === first) ?? null;
}

/** One file of a family: the name it is served under (`<mount>/formloom/assets/<name>`) and its package path. */
export interface FontFile {
  name: string;
  /** `@fontsource/<id>/files/<file>`, for `require.resolve`. */
  source: string;
  weight: number;
  subset: keyof typeof FONT_SUBSETS;
}

export function fontFiles(f: LibraryFont): FontFile[] {
  const out: FontFile[] = [];
  for (const weight of FONT_WEIGHTS) {
    for (const subset of Object.keys(FONT_SUBSETS) as Array<keyof typeof FONT_SUBSETS>) {
      const file = `${f.id}-${subset}-${weight}-normal.woff2`;
      out.push({ name: `font-${FONTSOURCE_VERSION}-${file}`, source: `@fontsource/${f.id}/files/${file}`, weight, subset });
    }
  }
  return out;
}

/** The file the first screen needs (regular Latin): the one a page preloads. */
export const preloadFile = (f: LibraryFont) => fontFiles(f).find((x) => x.weight === 400 && x.subset === 'latin')!;

/** `@font-face` rules for `f`, files under `assetBase` (the mount's `/formloom/assets`), `font-display: swap`. */
export function fontFaceCss(f: LibraryFont, assetBase: string): string {
  return fontFiles(f)
    .map(
      (x) =>
        `@font-face{font-family:"${f.family}";font-style:normal;font-weight:${x.weight};font-display:swap;src:url(${assetBase}/${x.name}) format("woff2");unicode-range:${FONT_SUBSETS[x.subset]}}`,
    )
    .join('');
}

/** The theme fields that name fonts, and the library families among their values (each once). */
export const FONT_THEME_FIELDS = ['font_family', 'font_family_answer', 'font_family_button', 'font_family_description', 'font_family_option', 'font_family_indicator'] as const;
export function themeLibraryFonts(theme: Record<string, unknown>): LibraryFont[] {
  const out: LibraryFont[] = [];
  for (const field of FONT_THEME_FIELDS) {
    const f = libraryFontOf(theme[field]);
    if (f && !out.includes(f)) out.push(f);
  }
  return out;
}
