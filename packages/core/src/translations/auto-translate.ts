import type { Question } from '../domain/types';
import { TranslatorError, type Translator } from '../ports/translator';
import { extraLanguages, missingTranslations, translatableTexts, type PublishWarning } from './translatable-texts';

/*
 * auto_translate (docs/languages.md "auto_translate"): at publish, the texts without a translation are sent to
 * the translator port, one call per language, and stored as translations marked as machine-made
 * (`machine_translations`). Only missing texts are filled: an owner's text, and an owner's edit of a machine
 * translation (which loses its mark), is never replaced. The calls are made outside the publish transaction;
 * `withFills` merges them inside it, again only where a text is still missing.
 */

export interface TranslationFill {
  /** Per language, path -> machine translation. */
  texts: Record<string, Record<string, string>>;
  /** Languages the translator failed for, with what is still missing: a publish warning. */
  failed: Array<{ language: string; message: string; paths: string[] }>;
}

/** Whether the form asks for machine translations: `auto_translate`, a default language and other languages. */
export function wantsAutoTranslate(options: Record<string, unknown>): boolean {
  return options.auto_translate === true && typeof options.language === 'string' && extraLanguages(options).length > 0;
}

/** The machine translations of every missing text of `form` (its snapshot state: options with title and description). */
export async function fillMissingTranslations(translator: Translator, form: Record<string, unknown>, questions: Question[]): Promise<TranslationFill> {
  const fill: TranslationFill = { texts: {}, failed: [] };
  if (!wantsAutoTranslate(form) || translator.id === 'none') return fill;
  const byPath = new Map(translatableTexts(form, questions).map((t) => [t.path, t.text]));
  for (const [language, paths] of Object.entries(missingTranslations(form, questions))) {
    try {
      const out = await translator.translate(paths.map((p) => byPath.get(p)!), form.language as string, language);
      if (out.length !== paths.length) throw new TranslatorError('The translator answered a different number of texts', 502);
      fill.texts[language] = Object.fromEntries(paths.map((p, i) => [p, out[i]!]).filter(([, v]) => v.trim() !== ''));
    } catch (e) {
      fill.failed.push({ language, message: e instanceof Error ? e.message : String(e), paths });
    }
  }
  return fill;
}

/** `options` with the fill's texts where a translation is still missing, each marked as machine-made. */
export function withFills(options: Record<string, unknown>, fill: TranslationFill, known?: ReadonlySet<string>): Record<string, unknown> {
  const langs = Object.keys(fill.texts).filter((l) => extraLanguages(options).includes(l));
  if (!langs.length) return options;
  const table = { ...((options.translations ?? {}) as Record<string, Record<string, string>>) };
  const marks = { ...((options.machine_translations ?? {}) as Record<string, string[]>) };
  for (const lang of langs) {
    const texts = { ...(table[lang] ?? {}) };
    const marked = new Set(marks[lang] ?? []);
    for (const [path, text] of Object.entries(fill.texts[lang]!)) {
      if (typeof texts[path] === 'string' && texts[path].trim() !== '') continue;
      // A fill computed before a save names only texts that still exist after it.
      if (known && !known.has(path)) continue;
      texts[path] = text;
      marked.add(path);
    }
    table[lang] = texts;
    if (marked.size) marks[lang] = [...marked];
  }
  return { ...options, translations: table, machine_translations: Object.keys(marks).length ? marks : null };
}

/** The publish warning of languages the translator failed for. */
export function fillWarnings(fill: TranslationFill): PublishWarning[] {
  if (!fill.failed.length) return [];
  return [
    {
      reason: 'auto_translate_failed',
      message: `The translator failed (${fill.failed.map((f) => `${f.language}: ${f.message}`).join('; ')}); those texts show in the default language`,
      missing: Object.fromEntries(fill.failed.map((f) => [f.language, f.paths])),
    },
  ];
}
