import { z } from 'zod';
import { badRequest } from '../errors';
import { extraLanguages } from './translatable-texts';
import type { Translator } from '../ports/translator';

/*
 * A form's languages and translations (docs/languages.md, docs/decisions.md "Languages"). The form's own texts
 * are written in its default language (`language`); `languages` lists the others it offers; `translations`
 * holds, per language, the text of each translatable place by a stable path (translatable-texts.ts names the
 * paths). `machine_translations` lists, per language, the paths the translator filled (auto_translate): an
 * owner's edit of one removes it from that list, so the owner's text is kept.
 */

/** A stable path of a translatable text: `title`, `questions.<id>.choices.<choice id or index>`, `strings.<key>`. */
export const translationPath = z
  .string()
  .max(300)
  .regex(/^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+){0,3}$/, 'a path such as "questions.<id>.title" or "welcome_title"');

export const MAX_LANGUAGES = 20;

/** The same BCP 47 tag as the form's `language` (forms/respondent-settings.ts, which spreads this file's shapes). */
const languageTag = z.string().regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/, 'a language tag such as "de" or "pt-BR"');

export const languageList = z
  .array(languageTag)
  .max(MAX_LANGUAGES)
  .refine((l) => new Set(l).size === l.length, 'repeats a language')
  .meta({ uniqueItems: true });

export const translationTable = z
  .record(languageTag, z.record(translationPath, z.string().max(20_000)))
  .refine((t) => Object.values(t).every((texts) => Object.keys(texts).length <= 5_000), 'at most 5,000 texts per language');

export const machineTranslationTable = z.record(languageTag, z.array(translationPath).max(5_000));

/** Input shape, spread into the create and update schemas (form-schemas.ts through respondent-settings.ts). */
export const languageSettingsShape = {
  languages: languageList.nullable().optional().describe('Languages offered besides the default one (`language`), e.g. ["de", "ar"]'),
  translations: translationTable.nullable().optional().describe('Per language, the text of each translatable path (docs/languages.md)'),
  machine_translations: machineTranslationTable
    .nullable()
    .optional()
    .describe('Per language, the paths filled by the translator (auto_translate); an edited text leaves this list'),
};

export const languageSettingsOutShape = {
  languages: z.array(z.string()).nullable(),
  translations: z.record(z.string(), z.record(z.string(), z.string())).nullable(),
  machine_translations: z.record(z.string(), z.array(z.string())).nullable(),
};

type Options = Record<string, unknown>;
type Table = Record<string, Record<string, string>>;

/**
 * Checks the merged settings of a create or update and keeps owners' edits of machine translations (the mark
 * goes, the text stays). Returns the options to store; 400 in the documented shape when they cannot work.
 */
export function settleLanguages(before: Options, next: Options): Options {
  const extra = extraLanguages(next);
  const base = typeof next.language === 'string' ? next.language : null;
  if (extra.length && !base) {
    throw badRequest('languages: set the default language (`language`) first: the other languages are translations of it', { field: 'languages', reason: 'languages_need_default_language' });
  }
  if (base && extra.includes(base)) throw badRequest(`languages: "${base}" is the default language; list only the others`, { field: 'languages', reason: 'language_is_default' });
  const table = (next.translations ?? null) as Table | null;
  if (table) {
    const unknown = Object.keys(table).filter((l) => !extra.includes(l));
    if (unknown.length) {
      throw badRequest(`translations: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the form's languages; add ${unknown.length === 1 ? 'it' : 'them'} to \`languages\``, {
        field: 'translations',
        reason: 'translation_language_not_offered',
      });
    }
  }
  const marks = (next.machine_translations ?? null) as Record<string, string[]> | null;
  if (!marks) return next;
  const old = (before.translations ?? {}) as Table;
  const kept: Record<string, string[]> = {};
  for (const [lang, paths] of Object.entries(marks)) {
    if (!extra.includes(lang)) continue;
    const now = table?.[lang] ?? {};
    // A path stays marked only while its text is the one the translator wrote (the text before this change).
    const still = paths.filter((p) => typeof now[p] === 'string' && (old[lang]?.[p] === undefined || old[lang][p] === now[p]));
    if (still.length) kept[lang] = [...new Set(still)];
  }
  return { ...next, machine_translations: Object.keys(kept).length ? kept : null };
}

/**
 * `auto_translate: true` needs a translator on this server (docs/configuration.md "Translation"): refused with a
 * 400 otherwise, rather than stored and silently never applied. Only a request that turns it on is checked.
 */
export function assertTranslatorFor(input: Record<string, unknown>, translator: Translator, options: Record<string, unknown> = input): void {
  // Checked only where the plan includes auto_translate: on the free plan it is stored false (docs/languages.md).
  if (options.auto_translate === true && typeof options.language !== 'string') {
    throw badRequest('auto_translate: needs a default language (`language`)', { field: 'auto_translate', reason: 'auto_translate_needs_language' });
  }
  if (input.auto_translate === true && translator.id === 'none') {
    throw badRequest('auto_translate: no translator is configured on this server (FORMLOOM_DEEPL_AUTH_KEY or FORMLOOM_LIBRETRANSLATE_URL, docs/languages.md)', {
      field: 'auto_translate',
      reason: 'translator_not_configured',
    });
  }
}
