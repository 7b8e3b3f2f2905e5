import { LIBRARY_FONTS, fontStack } from '../../../../renderer/src/fonts.js';

/*
 * Theme presets (docs/workspace.md "Theme"): named looks an owner applies in one click, each a complete set of
 * colours, a library font, a corner roundness and a background. Every colour pair keeps text readable (4.5:1
 * or more on its background), so a preset never costs the respondent's page its accessibility score.
 * Applying one sets these fields and clears the other colours (their readable defaults follow), as one step
 * of the builder's history: Undo takes it back.
 */

export interface ThemePreset {
  id: string;
  name: string;
  /** The theme fields it sets. */
  theme: {
    background_color: string;
    theme_color: string;
    text_color: string;
    title_color: string;
    description_color: string;
    button_color: string;
    button_text_color: string;
    font_family: string;
    corner_radius: string;
  };
}

const font = (family: string) => fontStack(LIBRARY_FONTS.find((f) => f.family === family)!);

export const THEME_PRESETS: readonly ThemePreset[] = [
  {
    id: 'midnight',
    name: 'Midnight',
    theme: { background_color: '#0a0a0a', theme_color: '#818cf8', text_color: '#f5f5f5', title_color: '#ffffff', description_color: '#a3a3a3', button_color: '#4f46e5', button_text_color: '#ffffff', font_family: font('Inter'), corner_radius: '8px' },
  },
  {
    id: 'paper',
    name: 'Paper',
    theme: { background_color: '#faf7f2', theme_color: '#9a3412', text_color: '#292524', title_color: '#1c1917', description_color: '#57534e', button_color: '#9a3412', button_text_color: '#ffffff', font_family: font('Lora'), corner_radius: '4px' },
  },
  {
    id: 'ocean',
    name: 'Ocean',
    theme: { background_color: '#082f49', theme_color: '#38bdf8', text_color: '#e0f2fe', title_color: '#ffffff', description_color: '#bae6fd', button_color: '#38bdf8', button_text_color: '#082f49', font_family: font('Nunito'), corner_radius: '14px' },
  },
  {
    id: 'forest',
    name: 'Forest',
    theme: { background_color: '#f0fdf4', theme_color: '#166534', text_color: '#14532d', title_color: '#052e16', description_color: '#3f6212', button_color: '#166534', button_text_color: '#ffffff', font_family: font('Merriweather'), corner_radius: '4px' },
  },
  {
    id: 'sunset',
    name: 'Sunset',
    theme: { background_color: '#fff7ed', theme_color: '#c2410c', text_color: '#431407', title_color: '#431407', description_color: '#7c2d12', button_color: '#c2410c', button_text_color: '#ffffff', font_family: font('Poppins'), corner_radius: '20px' },
  },
  {
    id: 'corporate',
    name: 'Corporate',
    theme: { background_color: '#ffffff', theme_color: '#1d4ed8', text_color: '#1f2937', title_color: '#111827', description_color: '#4b5563', button_color: '#1d4ed8', button_text_color: '#ffffff', font_family: font('Roboto'), corner_radius: '4px' },
  },
  {
    id: 'terminal',
    name: 'Terminal',
    theme: { background_color: '#0c0c0c', theme_color: '#4ade80', text_color: '#d4d4d4', title_color: '#4ade80', description_color: '#a3a3a3', button_color: '#4ade80', button_text_color: '#052e16', font_family: font('JetBrains Mono'), corner_radius: '0' },
  },
  {
    id: 'blossom',
    name: 'Blossom',
    theme: { background_color: '#fdf2f8', theme_color: '#be185d', text_color: '#500724', title_color: '#500724', description_color: '#831843', button_color: '#be185d', button_text_color: '#ffffff', font_family: font('Space Grotesk'), corner_radius: '14px' },
  },
  {
    id: 'gala',
    name: 'Gala',
    theme: { background_color: '#1c1917', theme_color: '#fbbf24', text_color: '#f5f5f4', title_color: '#fde68a', description_color: '#d6d3d1', button_color: '#fbbf24', button_text_color: '#1c1917', font_family: font('Playfair Display'), corner_radius: '0' },
  },
  {
    id: 'clean',
    name: 'Clean',
    theme: { background_color: '#f8fafc', theme_color: '#0f172a', text_color: '#1e293b', title_color: '#0f172a', description_color: '#475569', button_color: '#0f172a', button_text_color: '#ffffff', font_family: font('DM Sans'), corner_radius: '8px' },
  },
];

/** The colour fields a preset does not set: cleared when one is applied, so no colour of the last look stays. */
export const PRESET_CLEARS = ['answer_text_color', 'placeholder_color', 'option_text_color', 'indicator_bg_color', 'indicator_text_color'] as const;

/** The fields to patch for `preset`. */
export function presetPatch(preset: ThemePreset): Record<string, string | null> {
  const out: Record<string, string | null> = { ...preset.theme };
  for (const f of PRESET_CLEARS) out[f] = null;
  return out;
}

/** The preset the form's theme matches exactly, if any (shown as chosen). */
export function currentPreset(form: Record<string, unknown>): ThemePreset | null {
  return THEME_PRESETS.find((p) => Object.entries(p.theme).every(([k, v]) => form[k] === v)) ?? null;
}
