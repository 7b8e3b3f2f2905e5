import { EN, type StringKey, type Strings } from './en.js';
import { pickLanguage, RTL_LANGUAGES } from '../../languages.js';

/*
 * The page's own words (docs/respondents.md "Languages"): the form's `language`, else the first of the
 * browser's languages we speak, else English; the owner's `strings` over any of them. English is built in;
 * the other languages are JSON files beside the bundle (i18n/packs.ts), inlined by the `/f/` page or fetched.
 */
export type Translate = (key: StringKey, vars?: Record<string, string | number>) => string;
export type { StringKey, Strings };

export { pickLanguage };
export const isRtl = (lang: string) => RTL_LANGUAGES.includes(lang);

/** `t(key, vars)` in the language of `words`, with the owner's overrides first and English for anything missing. */
export function translator(words: Strings | null, overrides: unknown): Translate {
  const own = overrides && typeof overrides === 'object' ? (overrides as Record<string, unknown>) : {};
  words ??= EN;
  return (key, vars) => {
    const o = own[key];
    const text = typeof o === 'string' ? o : (words[key] ?? EN[key]);
    return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
  };
}

/** The keys an owner may override, for the API's validation and docs. */
export const STRING_KEYS = Object.keys(EN) as StringKey[];
